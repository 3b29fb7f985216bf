import { randomUUID } from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import { loggerFor, withRequestContext } from './logger.server'
import { observeRequest } from './metrics.server'
import { redactUrl } from './redaction.server'

// One line per request, and its duration in the histogram by route pattern (server/http.ts installs
// it; server/app.ts names the pattern). Written by hand rather than with pino-http: pino-http logs
// every header and the raw URL unless told otherwise, and binds its own request id beside ours;
// here the line holds only what is safe and useful (docs/decisions/031-structured-logs-and-metrics.md).

const log = loggerFor('http')

/** Sent with every answer and written on every line logged while the request is served. */
export const REQUEST_ID_HEADER = 'X-Request-Id'

/** A proxy's request id is kept when it looks like one (a UUID, a hex or base64url id); else a new UUID. */
const ACCEPTED_REQUEST_ID = /^[\w.:-]{8,128}$/

/** Polled by machines every few seconds: logged at debug level only. */
const QUIET_PATHS = new Set(['/healthz', '/metrics'])

/** What server/app.ts sets on res.locals once it knows which route answers (a pattern, never the raw URL). */
export const ROUTE_PATTERN_LOCAL = 'routePattern'

/** A request that reached no route the app knows, or was answered before the app named one. */
export const UNMATCHED_ROUTE = '(none)'

export function routePatternOf(res: Response): string {
  const pattern: unknown = res.locals[ROUTE_PATTERN_LOCAL]
  return typeof pattern === 'string' ? pattern : UNMATCHED_ROUTE
}

export function requestLogging(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    const offered = req.get(REQUEST_ID_HEADER)
    const requestId = offered && ACCEPTED_REQUEST_ID.test(offered) ? offered : randomUUID()
    res.setHeader(REQUEST_ID_HEADER, requestId)

    let logged = false
    const done = () => {
      if (logged) return
      logged = true
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      // A connection closed before the answer was sent is no status the client saw.
      const aborted = !res.writableFinished
      const route = routePatternOf(res)
      observeRequest(req.method, route, res.statusCode, seconds)
      const durationMs = Math.round(seconds * 10_000) / 10
      const url = redactUrl(req.originalUrl)
      const fields = {
        method: req.method,
        url,
        route,
        status: res.statusCode,
        durationMs,
        ...(aborted ? { aborted } : {}),
      }
      const message = `${req.method} ${url} ${aborted ? 'aborted' : res.statusCode} ${durationMs} ms`
      withRequestContext({ requestId }, () => {
        if (res.statusCode >= 500) log.error(fields, message)
        else if (aborted) log.warn(fields, message)
        else if (QUIET_PATHS.has(req.path)) log.debug(fields, message)
        else log.info(fields, message)
      })
    }
    res.once('finish', done)
    res.once('close', done)
    withRequestContext({ requestId }, next)
  }
}

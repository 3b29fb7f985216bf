// The server bundle's entry (see vite.config.ts): the React Router handler plus the routes that
// must not render React. Built into build/server/index.js; the dev server loads it through Vite.
import { createRequestHandler } from '@react-router/express'
import express, { type ErrorRequestHandler } from 'express'
import { applyAdminPhones } from '~/server/auth/admin-role.server'
import { UNEXPECTED_ERROR_MESSAGE } from '~/server/api/requests.server'
import { startCacheSync, type CacheSync } from '~/server/cache-sync.server'
import { disconnectDatabase, isDatabaseReachable } from '~/server/db.server'
import { startJobWorkers } from '~/server/jobs/workers.server'
import { publishCurrentTerms } from '~/server/account/terms-versions.server'
import { publishCurrentDocuments } from '~/server/account/document-versions.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { closeMailProvider } from '~/server/messaging/mail.server'
import { CROSS_SITE_REFUSAL_MESSAGE, isCrossSiteWrite } from '~/server/http/origin.server'
import { limitRequestBodies, withLimitedBodies } from '~/server/http/body-limit.server'
import { lingeringClose } from '~/server/http/lingering-close.server'
import { privateWhenSignedIn } from '~/server/http/private-pages.server'
import { uploadSlots } from '~/server/http/upload-slots.server'
import {
  isXsrfValid,
  newXsrfToken,
  readCookie,
  XSRF_COOKIE,
  XSRF_HEADER,
  XSRF_REFUSAL_MESSAGE,
} from '~/server/http/xsrf.server'
import { loggerFor } from '~/server/operations/logger.server'
import { mayReadMetrics } from '~/server/operations/metrics.server'
import { ROUTE_PATTERN_LOCAL } from '~/server/operations/request-log.server'
import { routePatternMatcher } from '~/server/operations/route-patterns.server'
import { metricsText, metricsToken } from '~/server/operations/store-figures.server'
import { adminWall } from './admin-wall'

const log = loggerFor('app')

export const app = express()
app.disable('x-powered-by')

// Before anything that may answer early: an answer that starts while the request body is still
// arriving closes the connection only after reading on for a bounded while (decision 042).
app.use(lingeringClose())

// Every answer to a signed-in request, or one that signs someone in, is never stored (app/server/http/private-pages.server.ts).
app.use(privateWhenSignedIn())

app.get('/healthz', async (_req, res) => {
  res.locals[ROUTE_PATTERN_LOCAL] = '/healthz'
  const reachable = await isDatabaseReachable()
  res
    .status(reachable ? 200 : 503)
    .set('Cache-Control', 'no-store')
    .json({ database: reachable ? 'up' : 'down' })
})

// Prometheus' scrape (docs/operations.md): this machine, or METRICS_TOKEN. Anyone else falls through
// to the page router and gets the store's own 404, as for any path that does not exist.
app.get('/metrics', async (req, res, next) => {
  if (!mayReadMetrics({ remoteAddress: req.socket.remoteAddress, headers: req.headers }, metricsToken())) return next()
  res.locals[ROUTE_PATTERN_LOCAL] = '/metrics'
  const { contentType, body } = await metricsText()
  res.status(200).set('Content-Type', contentType).set('Cache-Control', 'no-store').send(body)
})

// Uploads under way, per client address and in all, before any body is read (docs/limits.md).
app.use(uploadSlots())
app.use(limitRequestBodies())

// A cross-site form must not act for a signed-in user (SameSite=Lax covers most, not all, browsers).
// The one exception is the payment gateway's return POST, which acts for nobody: it carries no
// session cookie and pays only with a valid signature (app/routes/payments.callback.ts).
const CROSS_SITE_POSTS_ALLOWED = new Set(['/payments/callback'])
app.use((req, res, next) => {
  if (CROSS_SITE_POSTS_ALLOWED.has(req.path)) return next()
  const crossSite = isCrossSiteWrite(
    req.method,
    { origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site') },
    req.get('host') ?? '',
  )
  if (!crossSite) return next()
  const message = CROSS_SITE_REFUSAL_MESSAGE
  if (req.path.startsWith('/api/')) res.status(403).json({ message })
  else res.status(403).type('text/plain').send(message)
})

// The methods React Router hands to a route's loader or action (which answer 405 where they do not
// apply). It refuses any other before a route runs, in its own format: a 501 JSON answer instead.
const API_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'])
app.use('/api/v1', (req, res, next) => {
  if (API_METHODS.has(req.method)) return next()
  res.status(501).json({ message: `This API does not support the ${req.method} method.` })
})

// The JSON API's XSRF pair: every answer makes sure the client has a token cookie, and every
// state-changing call must send it back in the header.
app.use('/api/v1', (req, res, next) => {
  const token = readCookie(req.get('cookie'), XSRF_COOKIE)
  if (!token) {
    res.cookie(XSRF_COOKIE, newXsrfToken(), { path: '/', sameSite: 'lax', secure: req.secure, httpOnly: false })
  }
  if (req.method === 'GET' || req.method === 'HEAD' || isXsrfValid(token, req.get(XSRF_HEADER))) return next()
  res.status(403).json({ message: XSRF_REFUSAL_MESSAGE })
})

// Given as a function, React Router re-derives its route tables on every request: only the dev
// server, whose build changes under it, needs that.
const build = import.meta.env.DEV
  ? () => import('virtual:react-router/server-build')
  : await import('virtual:react-router/server-build')

// The route pattern a request reaches, for the request log and the request histogram (server/http.ts).
const patternMatchers = new WeakMap<object, ReturnType<typeof routePatternMatcher>>()
app.use(async (req, res, next) => {
  if (res.locals[ROUTE_PATTERN_LOCAL] !== undefined) return next()
  try {
    const routes = (typeof build === 'function' ? await build() : build).routes
    let matcher = patternMatchers.get(routes)
    if (!matcher) patternMatchers.set(routes, (matcher = routePatternMatcher(routes)))
    const pattern = matcher(req.path)
    if (pattern !== undefined) res.locals[ROUTE_PATTERN_LOCAL] = pattern
  } catch {
    // No build to match against (route-level tests serve this app without one): the request is counted unmatched.
  }
  next()
})

const storeHandler = (build: Parameters<typeof createRequestHandler>[0]['build']) =>
  withLimitedBodies(
    createRequestHandler({
      build,
      getLoadContext: (req, res) => ({
        cspNonce: String(res.locals.cspNonce ?? ''),
        clientIp: req.ip ?? 'unknown',
        // A client navigation asks for `<path>.data` (React Router's single fetch); anything else is the page itself.
        htmlOnly: req.path.endsWith('.data') ? undefined : new Map<string, unknown>(),
      }),
    }),
  )

app.use(adminWall(build, storeHandler))
app.use(storeHandler(build))

// What fails outside the API's route modules (their own failures are answered by apiGet/apiPost):
// JSON too, never Express's HTML error page.
const answerApiFailure: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error)
  log.error({ err: error, method: req.method }, `${req.method} ${req.baseUrl}${req.path} failed in the JSON API`)
  res.status(500).json({ message: UNEXPECTED_ERROR_MESSAGE })
}
app.use('/api/v1', answerApiFailure)

let cacheSync: CacheSync | undefined

/**
 * What every app instance does once before it serves: apply ADMIN_PHONES to existing accounts, record
 * the terms' text as a version if it is new (docs/regulatory.md), start
 * the job workers and listen for the other instances' cache invalidations.
 */
export async function startInstance(): Promise<void> {
  await applyAdminPhones()
  // Before the workers: their first terms-notices run announces the version this start recorded.
  await publishCurrentTerms()
  // The Privacy Policy, the Investor Charter and the MITC likewise (docs/decisions/053-document-versions.md).
  await publishCurrentDocuments()
  await startJobWorkers()
  cacheSync = await startCacheSync()
}

/** Closes what this bundle opened; called on graceful shutdown. */
export async function closeApp(): Promise<void> {
  await cacheSync?.stop()
  await stopJobs()
  closeMailProvider()
  await disconnectDatabase()
}

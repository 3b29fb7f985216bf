import { Transform } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { type AppLoadContext, type EntryContext, isRouteErrorResponse, ServerRouter } from 'react-router'
import { NonceContext } from './nonce'
import { HtmlOnlyContext } from '~/components/html-once'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('render')

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  const nonce = loadContext.cspNonce

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <HtmlOnlyContext.Provider value={loadContext.htmlOnly}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </HtmlOnlyContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // Every request gets the whole document at once, not the shell first: /details' step 1 form is
        // a lazy component (its own chunk), and a browser without JavaScript must get it in the HTML.
        // No page streams data, so waiting for all costs nothing else.
        // And in place: past this many bytes React would send a finished Suspense boundary's content
        // hidden at the end of the page, for a script to move it in.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true
        },
        onAllReady() {
          const body = joinedPerTurn(() => {
            clearTimeout(timeoutId)
            timeoutId = undefined
          })
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          pipe(body)
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the shell rendered are logged by React Router's document handler.
          if (shellRendered) log.error({ err: error }, 'Rendering a page failed after its shell was sent')
        },
      },
    )
  })
}

/**
 * React writes a page as hundreds of small chunks, and React Router's Express adapter flushes the
 * compressor after each one: every flush ends a deflate block, costing CPU and bytes. Chunks written
 * in the same event-loop turn leave as one, so a page that renders at once is compressed at once,
 * while streamed (deferred) parts still go out as soon as they are ready.
 */
function joinedPerTurn(onEnd: () => void): Transform {
  let pending: Buffer[] = []
  let scheduled: NodeJS.Immediate | undefined
  const pushPending = (stream: Transform) => {
    scheduled = undefined
    if (pending.length === 0) return
    stream.push(Buffer.concat(pending))
    pending = []
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk)
      scheduled ??= setImmediate(pushPending, this)
      callback()
    },
    flush(callback) {
      if (scheduled) clearImmediate(scheduled)
      pushPending(this)
      onEnd()
      callback()
    },
  })
}

/** Logs server errors once; a 404 or a request the browser gave up on is not an error of ours. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  log.error({ err: error }, `${request.method} ${new URL(request.url).pathname} failed`)
}

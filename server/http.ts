import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { constants as zlibConstants } from 'node:zlib'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import helmet from 'helmet'
import { isLoopbackHostHeader } from '~/server/http/listen-host.server'
import { copyAndRelease } from '~/server/http/released-chunks.server'
import { requestLogging } from '~/server/operations/request-log.server'

export type AppBundle = { app: RequestHandler; startInstance: () => Promise<void>; closeApp: () => Promise<void> }

const BUILT_CLIENT_DIR = path.resolve('build/client')

/** How long a browser that reached the store over HTTPS keeps refusing plain HTTP to it. */
export const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60

/**
 * The headers every answer carries, static files included: no content-type sniffing, and HSTS only
 * on a request that came over HTTPS (directly or as a trusted proxy's X-Forwarded-Proto says), so
 * that a store reached over plain HTTP (the demo on localhost) never tells a browser to insist on
 * HTTPS for that host.
 */
const transportHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  if (req.secure) res.setHeader('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_S}; includeSubDomains`)
  next()
}

/** `manifest-<version>.js` and its precompressed copies under /assets. */
const WHOLE_APP_MANIFEST = /^\/manifest-[\w-]+\.js(\.br|\.gz)?$/

/** The production build's static files: hashed assets precompressed by scripts/precompress.mjs. */
export function builtAssets(clientDir = BUILT_CLIENT_DIR): RequestHandler {
  const assets = express.Router()
  // The build's manifest of every route, the console's too. With lazy route discovery (React
  // Router's default) no page loads it: each asks /__manifest for the routes it needs, which the
  // admin wall answers (decision 006). Not served, so it tells an outsider nothing.
  assets.use('/assets', (req, _res, next) => next(WHOLE_APP_MANIFEST.test(req.path) ? 'router' : undefined))
  const precompressed = expressStaticGzip(path.join(clientDir, 'assets'), {
    enableBrotli: true,
    orderPreference: ['br', 'gz'],
    // Content-hashed names: a changed file gets a new name, so browsers never need to revalidate.
    serveStatic: { immutable: true, maxAge: '1y', index: false },
  })
  assets.use('/assets', (req, res, next) =>
    precompressed(req, res, (error?: unknown) => {
      // Not served after all (a POST to one of its files): the encoding and type it chose for the
      // file must not reach the page that answers instead, whose own Content-Type would otherwise
      // be appended to them (a TypeError logged, and a 404 page that is not the store's).
      for (const header of ['Content-Encoding', 'Content-Type', 'Vary']) res.removeHeader(header)
      next(error)
    }),
  )
  assets.use(express.static(clientDir, { maxAge: '1h', index: false }))
  return assets
}

/**
 * Brotli's quality for pages and JSON (the middleware's default is 4). At 6 the terms page (58 KB of HTML)
 * comes to 13.2 KB instead of 14.1 KB, inside TCP's first window with its headers (10 segments, about
 * 14.6 KB), so it arrives a round trip sooner on a slow network; it costs about 0.4 ms more CPU for that page.
 */
const PAGE_BROTLI_QUALITY = 6

/**
 * The app's long downloads, written a chunk at a time: the admin's CSV exports and the research audit packs (zips,
 * which the compressor leaves as they are). Their chunks are released as they are written (released-chunks.server.ts).
 */
const isStreamedDownload = (path: string) => path.endsWith('.csv') || path.endsWith('/audit-pack')

/**
 * Compression of the app's answers: pages and JSON at zlib's default level (brotli at PAGE_BROTLI_QUALITY); CSV downloads (the admin's exports,
 * up to hundreds of MB) at its fastest level, for the least CPU per byte on the store's two cores: it still sent
 * the 292 MB export of 1,000,000 payments as 76 MB.
 * One middleware or the other per request: two stacked would each replace res.flush, and a streamed page needs
 * its own compressor's flush.
 */
function compressedAnswers(): RequestHandler {
  // Brotli's window at 256 KiB, not its 4 MiB default: each answer under way holds an encoder, and our pages
  // are under 100 KB (decision 057: one run's peak at 50 connections went from 511 to 470 MB).
  const pages = compression({
    brotli: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_LGWIN]: 18,
      },
    },
  })
  const downloads = compression({ level: zlibConstants.Z_BEST_SPEED })
  return (req, res, next) => {
    if (!isStreamedDownload(req.path)) return pages(req, res, next)
    // Installed after the compressor's, so React Router's writes come here first (app/server/http/released-chunks.server.ts).
    downloads(req, res, () => {
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean
      res.write = ((chunk: unknown, ...rest: unknown[]) => write(copyAndRelease(chunk), ...rest)) as typeof res.write
      next()
    })
  }
}

/** Against DNS rebinding: 421 before anything else, static files included (docs/architecture.md, The demo store on loopback). */
const refuseOtherHosts: RequestHandler = (req, res, next) => {
  if (isLoopbackHostHeader(req.headers.host)) return next()
  res
    .status(421)
    .type('text/plain')
    .set('Cache-Control', 'no-store')
    .send('This demo store answers only at localhost, 127.0.0.1 or [::1]. Open it at http://localhost with its port.\n')
}

/**
 * The Express stack around the React Router app: the transport headers, static assets (not logged,
 * not compressed again), then request logging and timing (app/server/operations/request-log.server.ts), security headers with a per-request CSP nonce, and compression.
 */
export function createHttpApp({
  app,
  assets,
  production,
  trustProxy,
  loopbackHostsOnly = false,
}: {
  app: RequestHandler
  assets: RequestHandler
  production: boolean
  /** Which proxies' X-Forwarded-For to believe for the client address (rate limits depend on it). */
  trustProxy: string | number
  /** Refuse every request whose Host is not a loopback name (demo mode on loopback: `answersLoopbackHostsOnly`). */
  loopbackHostsOnly?: boolean
}) {
  const http = express()
  http.disable('x-powered-by')
  http.set('trust proxy', trustProxy)
  if (loopbackHostsOnly) http.use(refuseOtherHosts)
  http.use(transportHeaders)
  http.use(assets)

  // A request id on every answer and log line, one line per request, and its time in /metrics.
  http.use(requestLogging())

  http.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64')
    next()
  })
  http.use(
    helmet({
      contentSecurityPolicy: production
        ? {
            directives: {
              defaultSrc: ["'self'"],
              // Razorpay's checkout.js, its checkout frame and its hosted checkout (Pay on Website).
              scriptSrc: [
                "'self'",
                (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
                'https://checkout.razorpay.com',
              ],
              frameSrc: ['https://api.razorpay.com'],
              styleSrc: ["'self'"],
              imgSrc: ["'self'", 'data:', 'https://cdn.razorpay.com'],
              connectSrc: ["'self'", 'https://lumberjack.razorpay.com'],
              formAction: ["'self'", 'https://api.razorpay.com'],
              frameAncestors: ["'none'"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              upgradeInsecureRequests: null,
            },
          }
        : false,
      // Set by transportHeaders, only over HTTPS.
      strictTransportSecurity: false,
      // Helmet's `no-referrer` makes browsers send `Origin: null` on our own form posts, which the
      // cross-site check must refuse; `same-origin` keeps our URLs from other sites all the same.
      referrerPolicy: { policy: 'same-origin' },
    }),
  )

  http.use(compressedAnswers())
  http.use(app)
  return http
}

import { randomBytes } from 'node:crypto'
import path from 'node:path'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import helmet from 'helmet'
import morgan from 'morgan'

export type AppBundle = { app: RequestHandler; startInstance: () => Promise<void>; closeApp: () => Promise<void> }

const clientDir = path.resolve('build/client')

/** The production build's static files: hashed assets precompressed by scripts/precompress.mjs. */
export function builtAssets(): RequestHandler {
  const assets = express.Router()
  assets.use(
    '/assets',
    expressStaticGzip(path.join(clientDir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      // Content-hashed names: a changed file gets a new name, so browsers never need to revalidate.
      serveStatic: { immutable: true, maxAge: '1y', index: false },
    }),
  )
  assets.use(express.static(clientDir, { maxAge: '1h', index: false }))
  return assets
}

/**
 * The Express stack around the React Router app: static assets first (not logged, not compressed
 * again), then request logging, security headers with a per-request CSP nonce, and compression.
 */
export function createHttpApp({
  app,
  assets,
  production,
  trustProxy,
}: {
  app: RequestHandler
  assets: RequestHandler
  production: boolean
  /** Which proxies' X-Forwarded-For to believe for the client address (rate limits depend on it). */
  trustProxy: string | number
}) {
  const http = express()
  http.disable('x-powered-by')
  http.set('trust proxy', trustProxy)
  http.use(assets)

  http.use(morgan(production ? 'short' : 'dev'))

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
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, 'https://checkout.razorpay.com'],
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
      strictTransportSecurity: production,
      // Helmet's `no-referrer` makes browsers send `Origin: null` on our own form posts, which the
      // cross-site check must refuse; `same-origin` keeps our URLs from other sites all the same.
      referrerPolicy: { policy: 'same-origin' },
    }),
  )

  http.use(compression())
  http.use(app)
  return http
}

import { randomBytes } from 'node:crypto'
import path from 'node:path'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import helmet from 'helmet'
import morgan from 'morgan'

export type AppBundle = { app: RequestHandler; closeApp: () => Promise<void> }

const clientDir = path.resolve('build/client')

/**
 * The Express stack around the React Router app: precompressed immutable assets, security headers
 * with a per-request CSP nonce, compression of dynamic responses and request logging.
 */
export function createHttpApp({ app, production }: { app: RequestHandler; production: boolean }) {
  const http = express()
  http.disable('x-powered-by')
  http.set('trust proxy', 1)

  if (production) {
    // Built with content hashes and precompressed by scripts/precompress.mjs: never revalidated.
    http.use(
      '/assets',
      expressStaticGzip(path.join(clientDir, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gz'],
        serveStatic: { immutable: true, maxAge: '1y', index: false },
      }),
    )
    http.use(express.static(clientDir, { maxAge: '1h', index: false }))
  }

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
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
              styleSrc: ["'self'"],
              imgSrc: ["'self'", 'data:'],
              connectSrc: ["'self'"],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              upgradeInsecureRequests: null,
            },
          }
        : false,
      strictTransportSecurity: production,
    }),
  )

  http.use(compression())
  http.use(app)
  return http
}

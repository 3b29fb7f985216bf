// The server bundle's entry (see vite.config.ts): the React Router handler plus the routes that
// must not render React. Built into build/server/index.js; the dev server loads it through Vite.
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { isDatabaseReachable, prisma } from '~/server/db.server'
import { startJobWorkers, stopJobs } from '~/server/jobs.server'
import { isCrossSiteWrite } from '~/server/origin.server'

export const app = express()
app.disable('x-powered-by')

app.get('/healthz', async (_req, res) => {
  const reachable = await isDatabaseReachable()
  res.status(reachable ? 200 : 503).set('Cache-Control', 'no-store').json({ database: reachable ? 'up' : 'down' })
})

// A cross-site form must not act for a signed-in user (SameSite=Lax covers most, not all, browsers).
app.use((req, res, next) => {
  const crossSite = isCrossSiteWrite(req.method, { origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site') }, req.get('host') ?? '')
  if (!crossSite) return next()
  res.status(403).type('text/plain').send('Forbidden: this form was sent from another site.')
})

app.use(
  createRequestHandler({
    build: () => import('virtual:react-router/server-build'),
    getLoadContext: (req, res) => ({ cspNonce: String(res.locals.cspNonce ?? ''), clientIp: req.ip ?? 'unknown' }),
  }),
)

export { startJobWorkers }

/** Closes what this bundle opened; called on graceful shutdown. */
export async function closeApp(): Promise<void> {
  await stopJobs()
  await prisma.$disconnect()
}

// The server bundle's entry (see vite.config.ts): the React Router handler plus the routes that
// must not render React. Built into build/server/index.js; the dev server loads it through Vite.
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { isDatabaseReachable, prisma } from '~/server/db.server'

export const app = express()
app.disable('x-powered-by')

app.get('/healthz', async (_req, res) => {
  const reachable = await isDatabaseReachable()
  res.status(reachable ? 200 : 503).set('Cache-Control', 'no-store').json({ database: reachable ? 'up' : 'down' })
})

app.use(
  createRequestHandler({
    build: () => import('virtual:react-router/server-build'),
    getLoadContext: (_req, res) => ({ cspNonce: String(res.locals.cspNonce ?? '') }),
  }),
)

/** Closes what this bundle opened; called on graceful shutdown. */
export async function closeApp(): Promise<void> {
  await prisma.$disconnect()
}

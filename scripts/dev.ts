// `npm run dev`: Vite's dev server inside our Express stack, on the same database logic as `npm start`.
import { createServer } from 'vite'
import { prepareDatabase } from './db/prepare'
import { answersLoopbackHostsOnly, listenHost } from '../app/server/http/listen-host.server'
import { announceMode, listeningOn, loadEnvironment } from './environment'
import { onShutdown, stopServing } from './graceful-shutdown'
import { createHttpApp, type AppBundle } from '../server/http'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('start')

const env = await loadEnvironment({ businessDetails: true })

const database = await prepareDatabase(env)

const vite = await createServer({ server: { middlewareMode: true } })
const loadBundle = () => vite.ssrLoadModule('./server/app.ts') as Promise<AppBundle>
const http = createHttpApp({
  production: false,
  trustProxy: env.TRUST_PROXY,
  loopbackHostsOnly: answersLoopbackHostsOnly(env),
  assets: vite.middlewares,
  app: async (req, res, next) => {
    try {
      ;(await loadBundle()).app(req, res, next)
    } catch (error) {
      vite.ssrFixStacktrace(error as Error)
      next(error)
    }
  },
})
await (await loadBundle()).startInstance()
const server = http.listen({ port: env.PORT, host: listenHost(env) }, () => {
  announceMode(env, database)
  log.info(`Research Store (dev) on ${listeningOn(env)}`)
})

onShutdown({
  close: async () => {
    await stopServing(server)
    await (await loadBundle()).closeApp()
    await vite.close()
    await database.stop()
  },
  forceClose: async () => {
    server.closeAllConnections()
    await database.stop()
  },
})

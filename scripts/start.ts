// The server entry of `npm start`: provide the database (embedded when DATABASE_URL is unset), apply
// migrations, seed the demo catalogue in demo mode, and serve the production build. `npm run build`
// compiles it to build/start.js, which scripts/start.mjs runs once the build is up to date (decision 057).
import type { Server } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppBundle } from '../server/http'
import { onShutdown, stopServing } from './graceful-shutdown'

process.env.NODE_ENV = 'production'

const { announceMode, listeningOn, loadEnvironment } = await import('./environment')
const { answersLoopbackHostsOnly, listenHost } = await import('../app/server/http/listen-host.server')
const log = (await import('../app/server/operations/logger.server')).loggerFor('start')
const env = await loadEnvironment({ businessDetails: true })

const { prepareDatabase } = await import('./db/prepare')
const { builtAssets, createHttpApp } = await import('../server/http')

// From the working folder, as the static files are (server/http.ts): the shutdown test serves a stand-in from its own.
const SERVER_BUILD = path.resolve('build/server/index.js')

const database = await prepareDatabase(env)
let server: Server | undefined
let bundle: AppBundle | undefined

onShutdown({
  close: async () => {
    if (server) await stopServing(server)
    await bundle?.closeApp()
    await database.stop()
  },
  // Stopping PostgreSQL also ends the pool's sessions that a stuck request still holds.
  forceClose: async () => {
    server?.closeAllConnections()
    await database.stop()
  },
})

bundle = (await import(pathToFileURL(SERVER_BUILD).href)) as AppBundle
await bundle.startInstance()
server = createHttpApp({
  app: bundle.app,
  assets: builtAssets(),
  production: true,
  trustProxy: env.TRUST_PROXY,
  loopbackHostsOnly: answersLoopbackHostsOnly(env),
}).listen({ port: env.PORT, host: listenHost(env) }, () => {
  announceMode(env, database)
  log.info(`Research Store listening on ${listeningOn(env)}`)
})

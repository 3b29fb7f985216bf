import type { RequestHandler } from 'express'
import type { ServerBuild } from 'react-router'
import { getSessionUser } from '~/server/session.server'

/** `/admin` and below, as React Router matches it: any case, percent-encoded, repeated slashes. */
export function isAdminConsolePath(rawPath: string): boolean {
  let path = rawPath
  try {
    path = decodeURIComponent(rawPath)
  } catch {
    // A malformed escape: judged as sent.
  }
  return /^\/admin(\/|\.data$|$)/i.test(path.replace(/\/{2,}/g, '/'))
}

type BuildSource = ServerBuild | (() => Promise<ServerBuild>)

/**
 * For anyone but an admin the console does not exist (decision 006): every /admin request, and
 * every /__manifest request that asks for an /admin path, is served by `handlerFor` a build with no
 * console route in it, so it reaches the site's catch-all 404 page under its own URL, and neither
 * that page's inline route data nor the manifest names a console route. It goes on as a GET, so no
 * body is read and POST, PUT or DELETE answer the same 404 page instead of a 405.
 */
export function adminWall(build: BuildSource, handlerFor: (build: BuildSource) => RequestHandler): RequestHandler {
  const withoutTheConsole = handlerFor(
    typeof build === 'function' ? async () => buildWithoutTheConsole(await build()) : buildWithoutTheConsole(build),
  )
  return async (req, res, next) => {
    const asksForConsole =
      req.path === MANIFEST_PATH
        ? manifestPathsOf(req.originalUrl).some(isAdminConsolePath)
        : isAdminConsolePath(req.path)
    if (!asksForConsole) return next()
    const request = new Request(new URL(req.originalUrl, 'http://store'), {
      headers: { cookie: req.get('cookie') ?? '' },
    })
    if ((await getSessionUser(request))?.role === 'ADMIN') return next()
    if (req.method !== 'HEAD') req.method = 'GET'
    return withoutTheConsole(req, res, next)
  }
}

/** React Router's route discovery (`routeDiscovery`, lazy by default). */
const MANIFEST_PATH = '/__manifest'

/** The paths a /__manifest request asks the routes of (React Router: `paths`, comma-separated). */
function manifestPathsOf(originalUrl: string): string[] {
  const paths = new URL(originalUrl, 'http://store').searchParams.get('paths') ?? ''
  return paths
    .split(',')
    .filter(Boolean)
    .map((path) => (path.startsWith('/') ? path : `/${path}`))
}

const consoleFreeBuilds = new WeakMap<ServerBuild, ServerBuild>()

/** The build with every route under /admin taken out, from the server's route table and the client's manifest. */
function buildWithoutTheConsole(build: ServerBuild): ServerBuild {
  let consoleFree = consoleFreeBuilds.get(build)
  if (!consoleFree) {
    const isConsoleRoute = (id: string) => isAdminConsolePath(fullPathOf(build, id))
    const keep = <T>(routes: Record<string, T>) =>
      Object.fromEntries(Object.entries(routes).filter(([id]) => !isConsoleRoute(id)))
    consoleFree = {
      ...build,
      routes: keep(build.routes),
      assets: { ...build.assets, routes: keep(build.assets.routes) },
    }
    consoleFreeBuilds.set(build, consoleFree)
  }
  return consoleFree
}

/** A route's path from the root, its ancestors' paths joined: `/admin/customers/:userId`. */
function fullPathOf(build: ServerBuild, id: string): string {
  const segments: string[] = []
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    if (route.path) segments.unshift(route.path)
  }
  return `/${segments.join('/')}`
}

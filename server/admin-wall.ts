import type { RequestHandler } from 'express'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'
import { getSessionUser } from '~/server/session.server'

/** The path only the catch-all 404 route matches. */
const UNKNOWN_PAGE_PATH = '/__not-found'

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

/**
 * For anyone but an admin, every /admin URL and method is a request for an unknown page (decision
 * 006): it goes on as a GET, so no console action runs and no body is read, and the console's pages
 * answer it with the site's 404 page through their own guards. Its files (CSV, PAN card) have no
 * page to show that, so they are handed to the catch-all 404 route instead. React Router's
 * /__manifest, which a client-side navigation asks for the routes of a path, gets the catch-all
 * 404 route's for an /admin path.
 */
export function adminWall(build: ServerBuild | (() => Promise<ServerBuild>)): RequestHandler {
  return async (req, _res, next) => {
    const manifestPaths = req.path === MANIFEST_PATH ? manifestPathsOf(req.originalUrl) : undefined
    const asksForConsole = manifestPaths ? manifestPaths.some(isAdminConsolePath) : isAdminConsolePath(req.path)
    if (!asksForConsole) return next()
    const request = new Request(new URL(req.originalUrl, 'http://store'), {
      headers: { cookie: req.get('cookie') ?? '' },
    })
    if ((await getSessionUser(request))?.role === 'ADMIN') return next()
    if (manifestPaths) {
      // The routes a client-side navigation asks for: the catch-all 404's in place of the console's.
      const url = new URL(req.originalUrl, 'http://store')
      url.searchParams.set(
        'paths',
        manifestPaths.map((path) => (isAdminConsolePath(path) ? UNKNOWN_PAGE_PATH : path)).join(','),
      )
      req.originalUrl = `${url.pathname}${url.search}`
      return next()
    }
    if (req.method !== 'HEAD') req.method = 'GET'
    if (!servesAPage(typeof build === 'function' ? await build() : build, req.path)) {
      req.originalUrl = req.path.endsWith('.data') ? `${UNKNOWN_PAGE_PATH}.data` : UNKNOWN_PAGE_PATH
    }
    next()
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

/** Whether React Router answers `pathname` with a page (its deepest matching route has a component). */
function servesAPage(build: ServerBuild, pathname: string): boolean {
  const matches = matchRoutes(routeTree(build), pathname.replace(/\.data$/, ''))
  const deepest = matches?.at(-1)?.route.id
  return deepest !== undefined && build.routes[deepest]?.module.default !== undefined
}

const routeTrees = new WeakMap<ServerBuild, RouteObject[]>()

function routeTree(build: ServerBuild): RouteObject[] {
  let tree = routeTrees.get(build)
  if (!tree) {
    const childrenOf = (parentId: string | undefined): RouteObject[] =>
      Object.values(build.routes)
        .filter((route): route is NonNullable<typeof route> => route?.parentId === parentId)
        .map(({ id, path, index, caseSensitive }) =>
          index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: childrenOf(id) },
        )
    tree = childrenOf(undefined)
    routeTrees.set(build, tree)
  }
  return tree
}

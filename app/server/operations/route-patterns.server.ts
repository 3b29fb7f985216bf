import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

// The route pattern a request reached ("/invoices/:id", not "/invoices/3f2c..."), for the request
// histogram and the request log: a label per route, never per URL, so the figures stay few whatever
// a client requests.

type RouteManifest = ServerBuild['routes']

/** The manifest (each route knows its parent) as the nested routes matchRoutes takes. */
function routeTree(manifest: RouteManifest, parentId?: string): RouteObject[] {
  return Object.values(manifest)
    .filter((route) => route && route.parentId === parentId)
    .map((route) => {
      const children = routeTree(manifest, route!.id)
      return route!.index
        ? { id: route!.id, index: true, path: route!.path }
        : { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, children }
    })
}

/**
 * A client-side navigation asks for a page's data at its URL plus `.data` (React Router's single
 * fetch; `/_root.data` for `/`, `/x/_.data` for `/x/` with trailing-slash-aware data requests).
 */
function pagePathOfData(pathname: string): string | undefined {
  if (pathname === '/_root.data') return '/'
  if (pathname.endsWith('/_.data')) return pathname.slice(0, -'_.data'.length)
  if (pathname.endsWith('.data')) return pathname.slice(0, -'.data'.length)
  return undefined
}

/** Names the pattern of each path against one build's routes; undefined when no route matches. */
export function routePatternMatcher(manifest: RouteManifest): (pathname: string) => string | undefined {
  const tree = routeTree(manifest)
  const patternOf = (pathname: string) => {
    const matches = matchRoutes(tree, pathname)
    if (!matches?.length) return undefined
    const path = matches
      .map((match) => match.route.path ?? '')
      .filter(Boolean)
      .join('/')
    return `/${path}`.replace(/\/{2,}/g, '/')
  }
  return (pathname) => {
    const pagePath = pagePathOfData(pathname)
    if (pagePath === undefined) return patternOf(pathname)
    const pattern = patternOf(pagePath)
    return pattern === undefined ? undefined : `${pattern}.data`
  }
}

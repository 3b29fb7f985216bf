// The JavaScript a page adds to the layout's, from the build's own route manifest: what a first
// visit to the page loads (React Router preloads exactly the route chain's modules and their
// imports) minus what every page loads (the client entry, the root route and the manifest itself).
// Read from files, so pages behind sign-in (/pay needs a complete profile and a cart) are measured
// as easily as public ones.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

type ManifestRoute = { id: string; parentId?: string; module: string; imports?: string[] }
type ClientManifest = { entry: { module: string; imports?: string[] }; routes: Record<string, ManifestRoute> }

export type ChunkSize = { file: string; gzipBytes: number }
export type RouteJs = { routeId: string; gzipBytes: number; chunks: ChunkSize[] }
export type LayoutJs = { gzipBytes: number; chunks: ChunkSize[] }

/** React Router's client manifest (build/client/assets/manifest-<hash>.js): `window.__reactRouterManifest={...}`. */
function readClientManifest(clientDir: string): { file: string; manifest: ClientManifest } {
  const assetsDir = path.join(clientDir, 'assets')
  const files = readdirSync(assetsDir).filter((name) => /^manifest-[\w-]+\.js$/.test(name))
  if (files.length !== 1)
    throw new Error(`expected one React Router manifest in ${assetsDir}, found ${files.length}: rebuild`)
  const source = readFileSync(path.join(assetsDir, files[0]!), 'utf8')
  const manifest = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as ClientManifest
  return { file: `/assets/${files[0]}`, manifest }
}

/** Its gzip size as served: the build's own .gz copy (gzip -9, scripts/precompress.mjs), else compressed here alike. */
function gzipBytes(clientDir: string, file: string): number {
  const onDisk = path.join(clientDir, file)
  if (existsSync(`${onDisk}.gz`)) return readFileSync(`${onDisk}.gz`).length
  return gzipSync(readFileSync(onDisk), { level: 9 }).length
}

const sizes = (clientDir: string, files: Iterable<string>): ChunkSize[] =>
  [...files].map((file) => ({ file, gzipBytes: gzipBytes(clientDir, file) })).sort((a, b) => b.gzipBytes - a.gzipBytes)
const total = (chunks: ChunkSize[]) => chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0)

function layoutFiles(manifestFile: string, manifest: ClientManifest): Set<string> {
  const root = manifest.routes.root
  if (!root) throw new Error('the route manifest has no root route')
  return new Set([
    manifestFile,
    manifest.entry.module,
    ...(manifest.entry.imports ?? []),
    root.module,
    ...(root.imports ?? []),
  ])
}

/** What every page loads: the manifest, the client entry and the root route with their imports. */
export function layoutJs(clientDir: string): LayoutJs {
  const { file, manifest } = readClientManifest(clientDir)
  const chunks = sizes(clientDir, layoutFiles(file, manifest))
  return { gzipBytes: total(chunks), chunks }
}

/** The chunks a first visit to `routeId` loads that the layout does not, with their gzip sizes. */
export function routeJsBeyondLayout(clientDir: string, routeId: string): RouteJs {
  const { file, manifest } = readClientManifest(clientDir)
  const layout = layoutFiles(file, manifest)
  const own = new Set<string>()
  for (
    let route = manifest.routes[routeId];
    route && route.id !== 'root';
    route = route.parentId ? manifest.routes[route.parentId] : undefined
  ) {
    for (const chunk of [route.module, ...(route.imports ?? [])]) if (!layout.has(chunk)) own.add(chunk)
  }
  if (!manifest.routes[routeId]) throw new Error(`no route ${routeId} in the build's route manifest`)
  const chunks = sizes(clientDir, own)
  return { routeId, gzipBytes: total(chunks), chunks }
}

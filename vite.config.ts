import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null }

const CONFORM = /[\\/]node_modules[\\/]@conform-to[\\/](dom|react)[\\/]/
const ZOD = /[\\/]node_modules[\\/](zod|@conform-to[\\/]zod)[\\/]/
const APP_MODULE = /[\\/]app[\\/](components|domain|content)[\\/]/

/** Whether a module of ours loads a library matching `library`, directly or through its imports. */
function loads(library: RegExp, id: string, graph: ModuleGraph, seen = new Set<string>()): boolean {
  if (library.test(id)) return true
  if (seen.has(id) || id.includes('node_modules')) return false
  seen.add(id)
  return (graph.getModuleInfo(id)?.importedIds ?? []).some((imported) => loads(library, imported, graph, seen))
}

// Fewer, larger chunks for the browser: each request costs a round trip on a slow network, and a page
// of sixteen small chunks painted later than the same bytes in six (docs/decisions/022-fewer-client-chunks.md).
// Zod stays out of every chunk a page preloads: /details loads it after the page, at step 1 only.
const clientChunks = {
  groups: [
    {
      name: 'framework',
      // With Vite's helper for dynamic imports (/details' step 1 form, then its checks), which would be a file of its own.
      test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]|vite[\\/]preload-helper/,
      priority: 30,
    },
    // Before Zod's group, which would otherwise take Conform's modules along as its dependencies.
    { name: 'conform', test: CONFORM, priority: 20 },
    { name: 'zod', test: ZOD, priority: 19 },
    {
      // The app's own modules that several pages share, less those that would bring Conform or Zod to every page.
      name: (id: string, graph: ModuleGraph) =>
        APP_MODULE.test(id) && !loads(CONFORM, id, graph) && !loads(ZOD, id, graph) ? 'shared' : null,
      debugName: 'shared',
      minShareCount: 2,
      priority: 10,
    },
  ],
}

export default defineConfig({
  // Logos and avatars stay hashed files (cached for a year), not data URIs repeated in HTML and JS.
  build: { assetsInlineLimit: 0 },
  // React Router reads each environment's `rollupOptions` (Rolldown takes them as its options). The
  // bundler's timing report is off: on a loaded machine it fires on every build and says nothing of ours.
  environments: {
    // The server bundle's entry is our Express app, which imports the React Router build.
    ssr: { build: { rollupOptions: { input: './server/app.ts', checks: { bundlerTimings: false } } } },
    client: {
      build: { rollupOptions: { output: { codeSplitting: clientChunks }, checks: { bundlerTimings: false } } },
    },
  },
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  plugins: [tailwindcss(), reactRouter()],
})

import type { Config } from '@react-router/dev/config'

// React Router 8's behaviours, adopted where they change nothing for our users; the two left off
// say why (docs/decisions/033-react-router-v8-flags.md).
export default {
  ssr: true,
  future: {
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    // Loaders read the client's address and the CSP nonce from AppLoadContext (server/app.ts); the
    // middleware API moves them to a RouterContextProvider, with every loader and test that reads them.
    v8_middleware: false,
    // Handlers read request.url as the page's URL (redirect targets, callback origins, search
    // parameters); passed through, a data request's URL ends in .data.
    v8_passThroughRequests: false,
    // Splitting clientAction from its route adds a chunk to /pay; fewer chunks is decision 022.
    v8_splitRouteModules: false,
  },
} satisfies Config

// `npm start`: builds when needed, then runs the server entry scripts/start.ts as `npm run build`
// compiled it, so that serving loads no TypeScript loader (decision 057).
import { pathToFileURL } from 'node:url'
import { buildIfNeeded, START_BUILD } from './build-if-needed.mjs'

buildIfNeeded()
await import(pathToFileURL(START_BUILD).href)

// Hashed assets are compressed once at build time (brotli 11, gzip 9), never per request.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const ASSETS_DIR = path.resolve('build/client/assets')
const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/

let files = 0
for (const name of await readdir(ASSETS_DIR)) {
  if (!COMPRESSIBLE.test(name)) continue
  const file = path.join(ASSETS_DIR, name)
  const content = await readFile(file)
  // React Router builds every route for the browser: a resource route's module is an empty file,
  // listed in the manifest, with nothing to compress (decision 033).
  if (content.length === 0) continue
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }))
  files += 1
}
console.log(`Precompressed ${files} assets (brotli and gzip)`)

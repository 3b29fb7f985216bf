import { once } from 'node:events'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtAssets } from '../../server/http'

// The precompressed assets in front of an app that answers what they do not serve, and sets its
// headers the way React Router's Express adapter does (res.append).

const ENTRY = 'console.log("entry")\n'
let clientDir: string
const servers: http.Server[] = []

async function serveAssets(): Promise<string> {
  const http = express()
  http.use(builtAssets(clientDir))
  http.use((_req, res) => {
    res.status(404)
    res.append('Content-Type', 'text/html; charset=utf-8')
    res.end('<p>Not found</p>')
  })
  const server = http.listen(0, '127.0.0.1')
  servers.push(server)
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(os.tmpdir(), 'rs-built-'))
  await mkdir(path.join(clientDir, 'assets'))
  await writeFile(path.join(clientDir, 'assets', 'entry-abc.js'), ENTRY)
  await writeFile(path.join(clientDir, 'assets', 'entry-abc.js.br'), brotliCompressSync(ENTRY))
})

afterAll(async () => {
  for (const server of servers) server.close()
  await rm(clientDir, { recursive: true, force: true })
})

describe('the built assets', () => {
  it('serve the brotli copy of a hashed file to a browser that takes it', async () => {
    const response = await fetch(`${await serveAssets()}/assets/entry-abc.js`, { headers: { 'Accept-Encoding': 'br' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/javascript|^text\/javascript/)
    expect(await response.text()).toBe(ENTRY)
  })

  it('leave a request they do not serve to the app without their encoding or type (a POST to a precompressed file)', async () => {
    const response = await fetch(`${await serveAssets()}/assets/entry-abc.js`, {
      method: 'POST',
      headers: { 'Accept-Encoding': 'br' },
    })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe('<p>Not found</p>')
  })
})

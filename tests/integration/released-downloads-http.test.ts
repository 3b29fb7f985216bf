import { once } from 'node:events'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { releasableChunk } from '~/server/http/released-chunks.server'
import { createHttpApp } from '../../server/http'

// The production stack (server/http.ts) around a stand-in download: each chunk the app marks
// releasable is written as a copy and its own memory released, as React Router's writer would
// otherwise keep every chunk of a long download until its end (app/server/http/released-chunks.server.ts).

let server: http.Server
let origin: string
const written: Uint8Array[] = []

beforeAll(async () => {
  const download: express.RequestHandler = (req, res) => {
    res.type(req.path.endsWith('.csv') ? 'text/csv' : 'application/zip')
    const chunk = releasableChunk(new TextEncoder().encode(`bytes of ${req.path}\n`))
    written.push(chunk)
    res.write(chunk)
    res.end()
  }
  server = createHttpApp({
    app: download,
    assets: express.static('/nonexistent'),
    production: true,
    trustProxy: 'loopback',
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.close()
})

describe('a streamed download', () => {
  it.each([
    ['a CSV export', '/admin/payments.csv'],
    ['the date-range audit pack', '/admin/research/audit-pack'],
    ["an item's audit pack", '/admin/research/0b0e8a6e-1d4f-4a8e-9d0c-3c1f6f1e2a11/audit-pack'],
  ])('%s: each marked chunk is sent and its memory released', async (_name, pathname) => {
    const response = await fetch(`${origin}${pathname}`, { headers: { Host: 'localhost' } })
    expect(await response.text()).toBe(`bytes of ${pathname}\n`)
    expect(written.at(-1)!.byteLength).toBe(0)
  })
})

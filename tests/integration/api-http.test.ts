import { captureLogLines } from '~/server/operations/logger.server'
import http from 'node:http'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { serveAppDuringTests } from '../support/app-server'

// The Express layer in front of the /api/v1 route modules (server/app.ts): what it answers itself
// must be JSON too.

const app = serveAppDuringTests()
afterEach(() => {
  vi.restoreAllMocks()
})

/** Through Node's own client, which sends any method and shows headers as they came. */
function send(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(`${app.baseUrl}${path}`, { method, headers }, async (response) => {
      let body = ''
      for await (const chunk of response) body += chunk
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
    })
    request.on('error', reject)
    request.end()
  })
}

describe('the Express layer of /api/v1', () => {
  it('answers a method no call uses with 501 JSON', async () => {
    const response = await send('PROPFIND', '/api/v1/users/current-user')
    expect(response.status).toBe(501)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(response.body)).toEqual({ message: 'This API does not support the PROPFIND method.' })
  })

  it('takes an XSRF cookie that is not valid percent-encoding as no token: 403 JSON and a new cookie', async () => {
    const response = await send('POST', '/api/v1/users/logout', {
      Cookie: 'XSRF-TOKEN=%E0%A4%A',
      'X-XSRF-TOKEN': '%E0%A4%A',
    })
    expect(response.status).toBe(403)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(String(response.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]{32};/)
  })

  it('answers a failure outside the route modules with 500 JSON and logs it once', async () => {
    // Vitest has no React Router build, so handing any call to React Router fails: it stands in
    // for every failure between Express and the route modules.
    const log = captureLogLines()
    onTestFinished(log.stop)
    const response = await send('GET', '/api/v1/users/current-user')
    expect(response.status).toBe(500)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(response.body)).toEqual({
      message: 'Something went wrong on our side. Please try again in a moment.',
    })
    expect(log.lines().filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({ module: 'app', msg: 'GET /api/v1/users/current-user failed in the JSON API' }),
    ])
  })
})

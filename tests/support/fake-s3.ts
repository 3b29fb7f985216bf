import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordedRequest = {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
  signatureValid: boolean
}

type StoredObject = { body: Buffer; contentType: string }

/** Overrides the fake's answer to one request; return undefined to let the fake answer normally. */
export type FakeS3Override = (request: RecordedRequest) => { status: number; body?: string } | undefined

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/**
 * Checks an AWS Signature Version 4 `Authorization` header the way S3 does, written from AWS's
 * documentation independently of the client library, so a signing mistake fails the tests.
 */
export function verifySigV4(
  request: Omit<RecordedRequest, 'signatureValid'>,
  credentials: { accessKeyId: string; secretAccessKey: string; region: string },
): boolean {
  const authorization = String(request.headers.authorization ?? '')
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    )
  if (!match) return false
  const [, accessKeyId, date, region, signedHeaderList, signature] = match as unknown as string[]
  if (accessKeyId !== credentials.accessKeyId || region !== credentials.region) return false
  const amzDate = String(request.headers['x-amz-date'] ?? '')
  if (!amzDate.startsWith(date!)) return false
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '')
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(request.body)) return false

  const signedHeaders = signedHeaderList!.split(';')
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) return false
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('')
  const [pathname, query = ''] = request.path.split('?')
  const canonicalRequest = [request.method, pathname, query, canonicalHeaders, signedHeaderList, payloadHash].join('\n')
  const scope = `${date}/${region}/s3/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date!), region!), 's3'), 'aws4_request')
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex') === signature
}

/** A local S3 stand-in for one bucket: PUT, GET and DELETE of objects, recording every request. */
export async function startFakeS3(options: {
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  region: string
}) {
  const objects = new Map<string, StoredObject>()
  const requests: RecordedRequest[] = []
  let override: FakeS3Override | undefined

  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const recorded = {
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: incoming.headers,
      body: Buffer.concat(chunks),
    }
    const request = { ...recorded, signatureValid: verifySigV4(recorded, options) }
    requests.push(request)

    const answer = (status: number, body: string | Buffer = '', headers: Record<string, string> = {}) => {
      outgoing.writeHead(status, headers)
      outgoing.end(body)
    }
    const overridden = override?.(request)
    if (overridden) return answer(overridden.status, overridden.body)
    if (!request.signatureValid) return answer(403, '<Error><Code>SignatureDoesNotMatch</Code></Error>')

    const prefix = `/${options.bucket}/`
    if (!request.path.startsWith(prefix)) return answer(404, '<Error><Code>NoSuchBucket</Code></Error>')
    const key = decodeURIComponent(request.path.slice(prefix.length))
    if (request.method === 'PUT') {
      objects.set(key, { body: request.body, contentType: String(request.headers['content-type'] ?? '') })
      return answer(200, '', { ETag: `"${createHash('md5').update(request.body).digest('hex')}"` })
    }
    if (request.method === 'GET') {
      const object = objects.get(key)
      if (!object) return answer(404, '<Error><Code>NoSuchKey</Code></Error>')
      return answer(200, object.body, {
        'Content-Type': object.contentType,
        'Content-Length': String(object.body.length),
      })
    }
    if (request.method === 'DELETE') {
      objects.delete(key)
      return answer(204)
    }
    answer(405)
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    setOverride(next: FakeS3Override | undefined) {
      override = next
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

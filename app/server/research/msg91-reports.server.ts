import { createHash, timingSafeEqual } from 'node:crypto'
import { MSG91_DELIVERED_STATUS, msg91Reports } from '~/domain/msg91-delivery-reports'
import { prisma } from '../db.server'
import { env } from '../env.server'

// POST /webhooks/msg91?secret=... (docs/research.md, "Delivery reports"): MSG91's SMS delivery
// reports. MSG91 signs nothing, so the URL set in its panel carries MSG91_WEBHOOK_SECRET; without
// it configured there is no such endpoint (404). A delivered report marks the research SMS with
// that request id DELIVERED with its time, once; an unknown or forged id matches no row and is
// answered like any other (MSG91 retries anything but a 200).

/** The largest report body read: one request's reports are far smaller (docs/limits.md). */
export const MSG91_REPORT_MAX_BYTES = 256 * 1024

const digest = (value: string) => createHash('sha256').update(value).digest()
const json = (body: unknown, status = 200) => Response.json(body, { status })

export async function receiveMsg91Report(
  request: Request,
  secret: string | undefined = env.MSG91_WEBHOOK_SECRET,
  now = new Date(),
): Promise<Response> {
  if (!secret) return json({ message: 'Not Found' }, 404)
  const given = new URL(request.url).searchParams.get('secret')
  if (given === null || !timingSafeEqual(digest(given), digest(secret)))
    return json({ message: 'The secret is missing or wrong' }, 401)
  if (Number(request.headers.get('content-length') ?? 0) > MSG91_REPORT_MAX_BYTES)
    return json({ message: 'The report is too large' }, 413)
  const raw = await request.text()
  if (Buffer.byteLength(raw) > MSG91_REPORT_MAX_BYTES) return json({ message: 'The report is too large' }, 413)
  const reports = msg91Reports(raw, request.headers.get('content-type'))
  if (!reports) return json({ message: 'The report is neither MSG91’s form nor JSON' }, 400)
  const delivered = reports.filter((report) => report.status === MSG91_DELIVERED_STATUS)
  if (delivered.length === 0) return json({ ok: true, delivered: 0 })
  // One statement for the whole body: only SMS rows already SENT under that id move; a time from
  // the future or none at all is taken as now.
  const marked = await prisma.$executeRaw`
    UPDATE research_deliveries d
    SET status = 'DELIVERED', delivered_at = LEAST(r.delivered_at, ${now}::timestamptz)
    FROM (SELECT * FROM unnest(${delivered.map((report) => report.requestId)}::text[],
                               ${delivered.map((report) => (report.deliveredAt ?? now).toISOString())}::timestamptz[])
          AS x(request_id, delivered_at)) r
    WHERE d.provider_message_id = r.request_id AND d.channel = 'SMS' AND d.status = 'SENT'`
  return json({ ok: true, delivered: marked })
}

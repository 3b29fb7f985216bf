// MSG91's SMS delivery reports (docs/research.md, "Delivery reports"), read as pure data. MSG91
// posts them to the webhook URL set in its panel: version 2 as a form whose `data` field is a JSON
// array of requests, each with its `requestId` and a `report` per number; version 3 as one JSON
// object per number. Status "1" is delivered; the time is India time, "YYYY-MM-DD HH:MM:SS".

export const MSG91_DELIVERED_STATUS = '1'

export type Msg91Report = { requestId: string; status: string; deliveredAt: Date | null }

const INDIA_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/
const INDIA_OFFSET_MS = 330 * 60_000

/** "2024-05-22 10:06:20" (India time) -> the instant; null when it is not such a time. */
export function msg91Time(text: unknown): Date | null {
  if (typeof text !== 'string') return null
  const match = INDIA_DATE_TIME.exec(text.trim())
  if (!match) return null
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const utc = Date.UTC(year, month - 1, day, hour, minute, second)
  const back = new Date(utc)
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null
  return new Date(utc - INDIA_OFFSET_MS)
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null)

function reportOf(requestId: unknown, entry: unknown): Msg91Report | null {
  if (!entry || typeof entry !== 'object') return null
  const fields = entry as Record<string, unknown>
  const id = text(requestId)
  const status = text(fields.status)
  if (!id || !status) return null
  return { requestId: id, status, deliveredAt: msg91Time(fields.date ?? fields.deliveryTime) }
}

/**
 * The reports in a webhook's body: a v2 form (`data` = JSON array of `{ requestId, report: [...] }`)
 * or a v3 JSON object (or array of them) `{ requestId, status, date }`. Whatever does not read is
 * left out; null when the body is neither.
 */
export function msg91Reports(body: string, contentType: string | null): Msg91Report[] | null {
  let parsed: unknown
  try {
    if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      const data = new URLSearchParams(body).get('data')
      if (data === null) return null
      parsed = JSON.parse(data)
    } else parsed = JSON.parse(body)
  } catch {
    return null
  }
  const requests = Array.isArray(parsed) ? parsed : [parsed]
  return requests.flatMap((request: unknown) => {
    if (!request || typeof request !== 'object') return []
    const fields = request as Record<string, unknown>
    if (Array.isArray(fields.report))
      return fields.report.flatMap((entry: unknown) => reportOf(fields.requestId, entry) ?? [])
    return reportOf(fields.requestId, fields) ?? []
  })
}

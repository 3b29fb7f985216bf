import type { AuditPack } from './audit-pack.server'

/** The pack as a download: never cached, never shown inline. */
export function auditPackResponse({ filename, body }: AuditPack): Response {
  return new Response(body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

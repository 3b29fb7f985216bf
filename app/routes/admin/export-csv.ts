import { redirect } from 'react-router'
import { ExportRequestSchema } from '~/domain/admin'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { exportCsv } from '~/server/admin/export.server'
import type { Route } from './+types/export-csv'

/** The CSV file for /admin/export's form, streamed as it is read; wrong fields go back to the form, which says why. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const query = new URL(request.url).searchParams
  const parsed = ExportRequestSchema.safeParse(Object.fromEntries(query))
  if (!parsed.success) return redirect(`/admin/export?${query}`)
  const { filename, body } = await exportCsv(admin.id, parsed.data)
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}

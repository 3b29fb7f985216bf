import { redirect } from 'react-router'
import { requireAdmin } from '~/server/auth/admin-role.server'
import type { Route } from './+types/index'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return redirect('/admin/payments')
}

// A UI route, not a resource route, so that the 404 for non-admins renders the site's 404 page.
export default function AdminIndex() {
  return null
}

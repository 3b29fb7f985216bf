import { customerData } from '~/server/account/your-data.server'
import { requireUser } from '~/server/auth/sign-in.server'
import { PRIVATE_NO_STORE } from '~/server/http/private-pages.server'
import type { Route } from './+types/account.data-json'

/**
 * The customer's data as one JSON file (DPDP Act s.11): a download, with their PAN in full (it is
 * theirs), never cached. The PAN card image is not inlined: `profile.panCardImage` names its address.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const held = await customerData(user.id)
  const day = new Date().toISOString().slice(0, 10)
  return new Response(`${JSON.stringify(held, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="research-store-data-${day}.json"`,
      'Cache-Control': PRIVATE_NO_STORE,
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

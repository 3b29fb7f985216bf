import { siteTitle } from '~/domain/business-details'
import { data, Link } from 'react-router'
import { ResearchItemArticle } from '~/components/research-item-view'
import { isUuid } from '~/domain/uuid'
import { requireUser } from '~/server/auth/sign-in.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import { markResearchRead, researchItemForCustomer } from '~/server/research/delivered.server'
import { researchItemView } from '~/server/research/items.server'
import type { Route } from './+types/research.item'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  { title: siteTitle(matches, `${loaderData ? loaderData.item.title : 'Research'}`) },
]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

/**
 * Only a customer on the item's roll, or reading its service's archive, sees it; anyone else gets
 * the same 404 as for no item at all. The first opening clears its unread mark on /research.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const item = isUuid(params.itemId) ? await researchItemForCustomer(user.id, params.itemId) : null
  if (!item) throw data('Not found', { status: 404 })
  await markResearchRead(user.id, item.id)
  return { item: researchItemView(item) }
}

export default function ResearchItem({ loaderData: { item } }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <p className="text-sm print:hidden">
        <Link to="/research" className="underline">
          All your research
        </Link>
        . To keep a copy, use your browser&apos;s Print and choose &quot;Save as PDF&quot;.
      </p>
      <ResearchItemArticle item={item} />
    </div>
  )
}

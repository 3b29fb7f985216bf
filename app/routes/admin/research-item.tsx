import { data, Form, Link } from 'react-router'
import { FormMessage, StatusButton } from '~/components/forms'
import { ResearchItemArticle } from '~/components/research-item-view'
import { useIsPending } from '~/components/use-is-pending'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { dispatchIntent, readForm } from '~/server/http/form-data.server'
import { researchItemForAdmin, researchItemView } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import type { Route } from './+types/research-item'

// A research item in the console: a draft previewed as subscribers will read it, with Publish now;
// a published one with its roll size and whether its signature still verifies (docs/research.md).

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? loaderData.item.title : 'Research'} | Admin | Research Store` },
]

async function itemOr404(itemId: string) {
  const item = isUuid(itemId) ? await researchItemForAdmin(itemId) : null
  if (!item) throw data('Not found', { status: 404 })
  return item
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const item = await itemOr404(params.itemId)
  return {
    item: researchItemView(item),
    published: item.status === 'PUBLISHED',
    rollSize: item.rollSize,
    verification: item.status === 'PUBLISHED' ? await verifyStoredResearchItem(item.id) : null,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const item = await itemOr404(params.itemId)
  return dispatchIntent(
    await readForm(request),
    {
      publish: async () => {
        const published = await publishResearchItem(item.id, admin.id)
        if (!published.ok)
          return data({ message: 'This report was already published; it was not published again.' }, 409)
        return redirectWithFlash(`/admin/research/${item.id}`, {
          tone: 'success',
          message: `Published and delivered to ${published.rollSize} ${published.rollSize === 1 ? 'customer' : 'customers'}.`,
        })
      },
    },
    () => data({ message: 'Something was missing from the form. Please try again.' }, 400),
  )
}

export default function AdminResearchItem({ loaderData, actionData }: Route.ComponentProps) {
  const { item, published, rollSize, verification } = loaderData
  const pending = useIsPending()
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/admin/research" className="underline">
          All research
        </Link>
      </p>
      {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
      {published ? (
        <section
          aria-labelledby="record-heading"
          className="rounded-md border border-gray-300 p-4 dark:border-gray-700"
        >
          <h2 id="record-heading" className="text-lg font-semibold">
            Published record
          </h2>
          <p className="mt-1">
            Delivered on the site to {rollSize} {rollSize === 1 ? 'customer' : 'customers'} (the roll taken at
            publication). Signature:{' '}
            {verification === 'verified' ? 'verifies' : 'DOES NOT VERIFY: the stored item was altered after signing'}.
          </p>
          <p className="mt-2">
            {/* A file: the browser itself fetches it, so this page stays. */}
            <a href={`/admin/research/${item.id}/audit-pack`} download className="underline">
              Download the audit pack
            </a>{' '}
            (a zip: the signed record, the public key, the roll and every delivery, as JSON and CSV; check it with{' '}
            <code>npm run research:verify</code>).
          </p>
        </section>
      ) : (
        <section aria-labelledby="draft-heading" className="rounded-md border border-amber-400 p-4">
          <h2 id="draft-heading" className="text-lg font-semibold">
            Draft: preview
          </h2>
          <p className="mt-1">
            Below is the report as subscribers will read it. Publishing signs it, delivers it on the site to every
            customer with a running subscription to one of its services, and freezes it: it can never be edited.
          </p>
          <Form method="post" className="mt-3">
            <StatusButton name="intent" value="publish" status={pending ? 'pending' : 'idle'}>
              Publish now
            </StatusButton>
          </Form>
        </section>
      )}
      <ResearchItemArticle item={item} />
    </div>
  )
}

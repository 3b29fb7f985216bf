import { siteTitle } from '~/domain/business-details'
import { data, Form, Link } from 'react-router'
import { FormMessage, StatusButton } from '~/components/forms'
import { ResearchFollowUpLink } from '~/components/research-follow-up-link'
import { DeliveryLog, ResearchReach, ScheduleForm } from '~/components/research-desk'
import { ResearchItemArticle } from '~/components/research-item-view'
import { useIsPending } from '~/components/use-is-pending'
import { formatIndiaDateTime } from '~/domain/dates'
import { readScheduleTime } from '~/domain/research-desk'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { dispatchIntent, readForm } from '~/server/http/form-data.server'
import { researchItemForAdmin, researchItemView } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import { retryFailedDeliveries } from '~/server/research/delivery-log.server'
import { cancelResearchSchedule, scheduleResearchItem } from '~/server/research/scheduling.server'
import { researchItemDesk } from './research-desk.server'
import type { Route } from './+types/research-item'

// A research item in the console: a draft previewed as subscribers will read it, with whom it would
// reach, Publish now and Schedule; a scheduled one with Cancel; a published one with its roll,
// delivery log and Retry, and whether its signature still verifies (docs/research.md).

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  { title: siteTitle(matches, `${loaderData ? loaderData.item.title : 'Research'} | Admin`) },
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
    ...(await researchItemDesk(item, new URL(request.url), new Date())),
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
        if (!published.ok && published.reason === 'original-ended')
          return data(
            {
              message:
                'Not published: the item this follows has ended (withdrawn, stop-loss hit or closed) since this draft was written. Only a correction can follow it now.',
            },
            409,
          )
        if (!published.ok)
          return data({ message: 'This report was already published; it was not published again.' }, 409)
        return redirectWithFlash(`/admin/research/${item.id}`, {
          tone: 'success',
          message: `Published and delivered to ${published.rollSize} ${published.rollSize === 1 ? 'customer' : 'customers'}.`,
        })
      },
      schedule: async (form) => {
        const at = readScheduleTime(form.get('publishAt'), new Date())
        if (!at.ok)
          return data({ message: at.message, scheduleError: at.message, typedPublishAt: form.get('publishAt') }, 400)
        const scheduled = await scheduleResearchItem(item.id, admin.id, at.at)
        if (!scheduled.ok) return data({ message: 'Only a draft can be scheduled; this item is not one now.' }, 409)
        return redirectWithFlash(`/admin/research/${item.id}`, {
          tone: 'success',
          message: `Scheduled to publish at ${formatIndiaDateTime(at.at)}.`,
        })
      },
      'cancel-schedule': async () => {
        const cancelled = await cancelResearchSchedule(item.id, admin.id)
        if (!cancelled.ok) return data({ message: 'This item is not scheduled now (it may have been published).' }, 409)
        return redirectWithFlash(`/admin/research/${item.id}`, {
          tone: 'success',
          message: 'Schedule cancelled: the item is a draft again.',
        })
      },
      retry: async () => {
        const retried = await retryFailedDeliveries(item.id, admin.id)
        return redirectWithFlash(`/admin/research/${item.id}`, {
          tone: retried > 0 ? 'success' : 'error',
          message:
            retried > 0
              ? `${retried} failed ${retried === 1 ? 'delivery goes' : 'deliveries go'} back in the queue.`
              : 'No failed deliveries to retry.',
        })
      },
    },
    () => data({ message: 'Something was missing from the form. Please try again.' }, 400),
  )
}

export default function AdminResearchItem({ loaderData, actionData }: Route.ComponentProps) {
  const { item, published, rollSize, verification, scheduledFor, reach, scheduleBounds, deliveryLog } = loaderData
  const pending = useIsPending()
  const scheduleError =
    actionData && 'scheduleError' in actionData && typeof actionData.scheduleError === 'string'
      ? actionData.scheduleError
      : undefined
  // The refused time stays in the box, so the admin corrects it rather than typing it again.
  const typedPublishAt =
    actionData && 'typedPublishAt' in actionData && typeof actionData.typedPublishAt === 'string'
      ? actionData.typedPublishAt
      : undefined
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/admin/research" className="underline">
          All research
        </Link>
      </p>
      {actionData?.message && !scheduleError ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
      {published ? (
        <>
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
          {deliveryLog ? <DeliveryLog log={deliveryLog} rollSize={rollSize} /> : null}
        </>
      ) : (
        <section aria-labelledby="draft-heading" className="rounded-md border border-amber-400 p-4">
          <h2 id="draft-heading" className="text-lg font-semibold">
            {scheduledFor ? 'Scheduled: preview' : 'Draft: preview'}
          </h2>
          <p className="mt-1">
            Below is the report as subscribers will read it. Publishing signs it, delivers it on the site to every
            customer with a running subscription to one of its services, and freezes it: it can never be edited.
          </p>
          {scheduledFor ? (
            <p className="mt-2 font-medium">Scheduled to publish at {scheduledFor}; the roll is taken then.</p>
          ) : null}
          {reach ? <ResearchReach reach={reach} /> : null}
          <Form method="post" className="mt-3 flex flex-wrap gap-3">
            <StatusButton name="intent" value="publish" status={pending ? 'pending' : 'idle'}>
              Publish now
            </StatusButton>
            {scheduledFor ? (
              <StatusButton variant="secondary" name="intent" value="cancel-schedule">
                Cancel schedule
              </StatusButton>
            ) : null}
          </Form>
          {scheduledFor ? null : <ScheduleForm {...scheduleBounds} error={scheduleError} typed={typedPublishAt} />}
        </section>
      )}
      {published && !item.original ? <ResearchFollowUpLink itemId={item.id} /> : null}
      <ResearchItemArticle item={item} linkBase="/admin/research" />
    </div>
  )
}

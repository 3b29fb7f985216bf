import { siteTitle } from '~/domain/business-details'
import { Form, Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { FormMessage, SelectField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { trackRecordPage } from './research-track-record.server'
import type { Route } from './+types/research-track-record'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Track record | Research | Admin') },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return trackRecordPage(new URL(request.url))
}

const COLUMNS = [
  'Published',
  'Call',
  'Instrument',
  'Action',
  'Entry',
  'Targets',
  'Stop-loss',
  'Outcome',
  'Exit',
  'Return',
] as const
const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

export default function AdminResearchTrackRecord({ loaderData }: Route.ComponentProps) {
  const { services, serviceId, problem, record } = loaderData
  const choosing = useIsPending({ formMethod: 'GET' })
  return (
    <section>
      <h1 className="text-2xl font-semibold">Track record</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        A service&apos;s published calls and their outcomes, from their published follow-ups. For the admin only: the
        public performance page publishes nothing until a PaRRVA has verified it.{' '}
        <Link to="/admin/research" className="underline">
          Back to research
        </Link>
      </p>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-3" aria-label="Choose a service">
        <SelectField
          label="Service"
          selectProps={{ id: 'track-record-service', name: 'service', defaultValue: record ? serviceId : '' }}
          placeholder="Choose a service"
          options={services}
        />
        <StatusButton variant="secondary" status={choosing ? 'pending' : 'idle'}>
          Show
        </StatusButton>
      </Form>
      {problem ? (
        <div className="mt-4">
          <FormMessage tone="error">{problem}</FormMessage>
        </div>
      ) : null}
      {record ? (
        <>
          <h2 className="mt-6 text-xl font-semibold">{record.service.name}</h2>
          <section aria-labelledby="track-record-summary">
            <h3 id="track-record-summary" className="mt-2 text-lg font-semibold">
              Summary
            </h3>
            <dl className="mt-2 grid max-w-xl grid-cols-2 gap-x-4 gap-y-1">
              <dt>Calls</dt>
              <dd className="tabular-nums">{record.summary.calls}</dd>
              <dt>Open</dt>
              <dd className="tabular-nums">{record.summary.open}</dd>
              <dt>Closed</dt>
              <dd className="tabular-nums">
                {record.summary.closed} (target hit {record.summary.targetHit}, stop-loss hit{' '}
                {record.summary.stopLossHit}, closed at a price {record.summary.closedAtPrice}, withdrawn{' '}
                {record.summary.withdrawn})
              </dd>
              <dt>Hit rate</dt>
              <dd className="tabular-nums">{record.summary.hitRate}</dd>
              <dt>Average return of closed calls</dt>
              <dd className="tabular-nums">{record.summary.averageReturn}</dd>
              {record.summary.notScored ? (
                <>
                  <dt>Exit calls (not scored)</dt>
                  <dd className="tabular-nums">{record.summary.notScored}</dd>
                </>
              ) : null}
            </dl>
          </section>
          <p className="mt-2 max-w-3xl text-sm text-gray-700 dark:text-gray-300">
            Hit rate: calls whose last target was hit over closed calls; a withdrawn call counts as closed and not hit.
            Return: from the entry (a range&apos;s midpoint) to the exit price, signed by the action (a sell gains when
            the price falls); the average is over calls closed at a price, so withdrawals, which have none, are left
            out. Exit calls open no position and are not scored.
          </p>
          <p className="mt-3">
            <a href={`/admin/research/track-record.csv?service=${record.service.id}`} className="underline" download>
              Download the track record (CSV)
            </a>
          </p>
          {record.calls.length === 0 ? (
            <p className="mt-4">No calls published for this service yet.</p>
          ) : (
            <>
              {record.shown < record.summary.calls ? (
                <p className="mt-4">
                  The newest {record.shown} of {record.summary.calls} calls; the CSV has them all.
                </p>
              ) : null}
              <ScrollableTable label="Calls">
                <ColumnHeaders columns={COLUMNS} />
                <tbody>
                  {record.calls.map((call) => (
                    <tr key={call.id}>
                      <td className={cell}>{call.publishedAt}</td>
                      <td className={cell}>
                        <Link to={`/admin/research/${call.id}`} className="underline">
                          {call.title}
                        </Link>
                      </td>
                      <td className={cell}>{call.instrument}</td>
                      <td className={cell}>{call.action}</td>
                      <td className={`${cell} tabular-nums`}>{call.entry}</td>
                      <td className={`${cell} tabular-nums`}>
                        {call.targets}
                        {call.revised ? ' (as revised)' : ''}
                      </td>
                      <td className={`${cell} tabular-nums`}>{call.stopLoss}</td>
                      <td className={cell}>
                        {call.outcome}
                        {call.endedAt ? `, ${call.endedAt}` : ''}
                      </td>
                      <td className={`${cell} tabular-nums`}>{call.exit}</td>
                      <td className={`${cell} text-right tabular-nums`}>{call.returnWords}</td>
                    </tr>
                  ))}
                </tbody>
              </ScrollableTable>
            </>
          )}
        </>
      ) : null}
    </section>
  )
}

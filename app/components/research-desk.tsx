import { Form, Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { Field, SelectField, StatusButton } from '~/components/forms'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { useIsPending } from '~/components/use-is-pending'
import { RESEARCH_KIND_LABELS, RESEARCH_SCHEDULE_HORIZON_DAYS, RESEARCH_STATUS_LABELS } from '~/domain/research-desk'

// The analyst's desk (docs/research.md): the list's filter, a draft's reach and schedule, and a
// published item's delivery log. Each form is a plain GET or POST, so all of it works without JavaScript.

const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'
const boxClass = 'rounded-md border border-gray-300 p-4 dark:border-gray-700'

type ListFilter = { serviceId?: string; kind?: string; status?: string; from?: string; to?: string }

export function ResearchListFilterForm({
  filter,
  services,
}: {
  filter: ListFilter
  services: { value: string; label: string }[]
}) {
  const filtering = useIsPending({ formMethod: 'GET' })
  return (
    <Form method="get" className="mt-3 flex flex-wrap items-end gap-3" aria-label="Filter research">
      <SelectField
        label="Service"
        selectProps={{ id: 'research-service', name: 'serviceId', defaultValue: filter.serviceId ?? '' }}
        placeholder="Any"
        options={services}
      />
      <SelectField
        label="Kind"
        selectProps={{ id: 'research-kind', name: 'kind', defaultValue: filter.kind ?? '' }}
        placeholder="Any"
        options={Object.entries(RESEARCH_KIND_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <SelectField
        label="Status"
        selectProps={{ id: 'research-status', name: 'status', defaultValue: filter.status ?? '' }}
        placeholder="Any"
        options={Object.entries(RESEARCH_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <Field
        label="From (India date)"
        inputProps={{ id: 'research-from', type: 'date', name: 'from', defaultValue: filter.from ?? '' }}
      />
      <Field
        label="To (India date)"
        inputProps={{ id: 'research-to', type: 'date', name: 'to', defaultValue: filter.to ?? '' }}
      />
      <StatusButton variant="secondary" status={filtering ? 'pending' : 'idle'}>
        Filter
      </StatusButton>
    </Form>
  )
}

export type ReachPreview = { site: number; channels: { label: string; customers: number }[] }

const customers = (count: number) => `${count} ${count === 1 ? 'customer' : 'customers'}`

/** Whom publishing now would reach: the roll as it would be taken this minute, and each channel's share. */
export function ResearchReach({ reach }: { reach: ReachPreview }) {
  return (
    <div className="mt-3">
      <p>Publishing now would reach {customers(reach.site)}:</p>
      <ul aria-label="Reach by channel" className="mt-1 list-disc pl-6">
        <li>On the site: {customers(reach.site)}</li>
        {reach.channels.map(({ label, customers: count }) => (
          <li key={label}>
            {label}: {customers(count)}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Schedule a draft for a later minute, in India time. No `min`: a page left open would keep a stale
 * one, and the server's refusal of a past time says why.
 */
export function ScheduleForm({ max, error, typed }: { max: string; error?: string; typed?: string }) {
  const pending = useIsPending({ formMethod: 'POST' })
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
      <Field
        label="Publish at (India time)"
        hint={`A later minute, at most ${RESEARCH_SCHEDULE_HORIZON_DAYS} days ahead.`}
        errors={error ? [error] : undefined}
        inputProps={{
          id: 'publish-at',
          type: 'datetime-local',
          name: 'publishAt',
          max,
          required: true,
          defaultValue: typed,
        }}
      />
      <StatusButton variant="secondary" name="intent" value="schedule" status={pending ? 'pending' : 'idle'}>
        Schedule
      </StatusButton>
    </Form>
  )
}

export type DeliveryLogView = {
  counts: { label: string; queued: number; sent: number; delivered: number; failed: number }[]
  failedTotal: number
  invalidCursor: boolean
  next: string | null
  previous: string | null
  roll: { userId: string; name: string | null; phone: string; deliveredAt: string; channels: string }[]
  failed: {
    id: string
    userId: string
    name: string | null
    phone: string
    channel: string
    attempts: number
    failedAt: string
    reason: string
  }[]
}

function CustomerCell({ userId, name, phone }: { userId: string; name: string | null; phone: string }) {
  return (
    <td className={cell}>
      <Link to={`/admin/customers/${userId}`} className="underline">
        <span className="capitalize">{name ?? 'No name yet'}</span> ({phone})
      </Link>
    </td>
  )
}

/** A published item's delivery log: counts per channel and state, failed deliveries with Retry, the roll. */
export function DeliveryLog({ log, rollSize }: { log: DeliveryLogView; rollSize: number }) {
  const retrying = useIsPending({ formMethod: 'POST' })
  return (
    <>
      <section aria-labelledby="deliveries-heading" className={boxClass}>
        <h2 id="deliveries-heading" className="text-lg font-semibold">
          Deliveries
        </h2>
        <p className="mt-1">On the site: {customers(rollSize)}, at publication.</p>
        {log.counts.length === 0 ? (
          <p className="mt-2">No deliveries on other channels.</p>
        ) : (
          <ScrollableTable label="Deliveries by channel" minWidthClass="min-w-[24rem]">
            <ColumnHeaders columns={['Channel', 'Queued', 'Sent', 'Delivered (reported)', 'Failed']} />
            <tbody>
              {log.counts.map((row) => (
                <tr key={row.label}>
                  <th scope="row" className={`${cell} text-left font-normal`}>
                    {row.label}
                  </th>
                  <td className={`${cell} text-right tabular-nums`}>{row.queued}</td>
                  <td className={`${cell} text-right tabular-nums`}>{row.sent}</td>
                  <td className={`${cell} text-right tabular-nums`}>{row.delivered}</td>
                  <td className={`${cell} text-right tabular-nums`}>{row.failed}</td>
                </tr>
              ))}
            </tbody>
          </ScrollableTable>
        )}
      </section>

      <section aria-labelledby="failed-heading" className={boxClass}>
        <h2 id="failed-heading" className="text-lg font-semibold">
          Failed deliveries
        </h2>
        {log.failedTotal === 0 ? (
          <p className="mt-1">None.</p>
        ) : (
          <>
            <p className="mt-1">
              {log.failedTotal} failed{log.failedTotal > log.failed.length ? `; the newest ${log.failed.length}` : ''}.
              Retry puts every failed delivery of this item back in the queue, its tries counted from none.
            </p>
            <Form method="post" className="mt-3">
              <StatusButton name="intent" value="retry" status={retrying ? 'pending' : 'idle'}>
                Retry failed deliveries
              </StatusButton>
            </Form>
            <ScrollableTable label="Failed deliveries, newest first">
              <ColumnHeaders columns={['Customer', 'Channel', 'Tries', 'Failed at', 'Reason']} />
              <tbody>
                {log.failed.map((row) => (
                  <tr key={row.id}>
                    <CustomerCell {...row} />
                    <td className={cell}>{row.channel}</td>
                    <td className={`${cell} text-right tabular-nums`}>{row.attempts}</td>
                    <td className={cell}>{row.failedAt}</td>
                    <td className={`${cell} break-words`}>{row.reason}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollableTable>
          </>
        )}
      </section>

      <section aria-labelledby="roll-heading" className={boxClass}>
        <h2 id="roll-heading" className="text-lg font-semibold">
          The roll
        </h2>
        <InvalidCursorNotice invalid={log.invalidCursor} />
        {log.roll.length === 0 ? (
          <p className="mt-1">Nobody was entitled to this item at publication.</p>
        ) : (
          <ScrollableTable label="Customers on the roll">
            <ColumnHeaders columns={['Customer', 'Delivered at', 'Channels']} />
            <tbody>
              {log.roll.map((row) => (
                <tr key={row.userId}>
                  <CustomerCell {...row} />
                  <td className={cell}>{row.deliveredAt}</td>
                  <td className={cell}>{row.channels || 'Site only'}</td>
                </tr>
              ))}
            </tbody>
          </ScrollableTable>
        )}
        <Pager label="Pages of the roll" next={log.next} previous={log.previous} />
      </section>
    </>
  )
}

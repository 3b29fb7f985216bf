import { Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { formatRupees, formatSignedRupees } from '~/domain/money'
import { maskPan } from '~/domain/pan'
import { taxDocumentHref } from '~/domain/tax-documents'
import { customerData } from '~/server/account-data.server'
import { requireUser } from '~/server/auth.server'
import { privatePageHeaders } from '~/server/private-pages.server'
import type { Route } from './+types/account'

export const meta: Route.MetaFunction = () => [{ title: 'Your data | Research Store' }]

/** Personal data: never cached, document or .data (app/server/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

const when = (iso: string | null) => (iso ? formatIndiaDateTime(new Date(iso)) : '')
const onDay = (iso: string | null) => (iso ? formatIndiaDate(new Date(iso)) : '')
const words = (value: string | null) => (value ? value.replaceAll('_', ' ').toLowerCase() : '')

/** What we hold about the signed-in customer (DPDP Act s.11); the PAN only displayed, so masked. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const held = (await customerData(user.id))!
  return {
    profile: {
      phone: held.profile.phone,
      name: held.profile.name ?? '',
      email: held.profile.email ?? '',
      dateOfBirth: held.profile.dateOfBirth ? onDay(`${held.profile.dateOfBirth}T00:00:00+05:30`) : '',
      pan: maskPan(held.profile.pan) ?? '',
      hasPanCard: held.profile.panCardImage !== null,
      kyc: words(held.profile.kyc.status) || 'not checked',
      since: onDay(held.profile.accountCreatedAt),
    },
    familyMembers: held.familyMembers.map((member) => ({ pan: maskPan(member.pan), relation: words(member.relation) })),
    acceptances: held.acceptances.map((row) => ({
      key: `${row.document}-${row.version}-${row.acceptedAt}`,
      document: words(row.document),
      version: row.version,
      acceptedAt: when(row.acceptedAt),
      channel: row.channel === 'API' ? 'app' : 'website',
    })),
    payments: held.payments.map((payment) => ({
      id: payment.id,
      createdAt: when(payment.createdAt),
      services: payment.services.join(', '),
      amount: formatRupees(payment.amountPaise),
      method: words(payment.method),
      status: words(payment.status),
    })),
    invoices: held.invoices.map((entry) => ({
      number: entry.number,
      title: entry.kind === 'INVOICE' ? 'Invoice' : 'Credit note',
      issuedOn: onDay(entry.issuedAt),
      amount: formatSignedRupees(entry.amountPaise),
    })),
    subscriptions: held.subscriptions.map((row, index) => ({
      key: `${row.service}-${row.startsAt}-${index}`,
      service: row.service,
      startsAt: onDay(row.startsAt),
      endsAt: onDay(row.endsAt),
    })),
    signIns: held.signIns.map((row) => ({
      key: `${row.signedInAt}-${row.expiresAt}`,
      signedInAt: when(row.signedInAt),
      state: row.active ? `signed in until ${onDay(row.expiresAt)} at the latest` : 'ended',
    })),
  }
}

const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-medium">{title}</h2>
      {children}
    </section>
  )
}

function Rows({ label, columns, rows }: { label: string; columns: readonly string[]; rows: React.ReactNode[][] }) {
  if (rows.length === 0) return <p className="text-sm">None.</p>
  return (
    <ScrollableTable label={label} minWidthClass="min-w-[32rem]">
      <ColumnHeaders columns={columns} />
      <tbody>
        {rows.map((row, index) => (
          <tr key={index}>
            {row.map((value, column) => (
              <td key={column} className={cell}>
                {value}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  )
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const { profile } = loaderData
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Your data</h1>
        <p className="text-sm">
          Everything we hold about you, as the{' '}
          <Link to="/privacy-policy" className="underline">
            privacy policy
          </Link>{' '}
          describes. Download it all as one file (JSON, with your PAN in full):{' '}
          <a href="/account/data.json" download className="underline">
            Download your data
          </a>
          .
        </p>
      </div>

      <Section title="Profile">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">Mobile number</dt>
          <dd>{profile.phone}</dd>
          <dt className="font-medium">Name</dt>
          <dd>{profile.name}</dd>
          <dt className="font-medium">E-mail</dt>
          <dd>{profile.email}</dd>
          <dt className="font-medium">Date of birth</dt>
          <dd>{profile.dateOfBirth}</dd>
          <dt className="font-medium">PAN</dt>
          <dd>{profile.pan}</dd>
          <dt className="font-medium">KYC at the KRA</dt>
          <dd>{profile.kyc}</dd>
          <dt className="font-medium">Customer since</dt>
          <dd>{profile.since}</dd>
        </dl>
        {profile.hasPanCard ? (
          <p className="text-sm">
            <a href="/details/pan-card" className="underline">
              Your PAN card image
            </a>{' '}
            (a download of its own).
          </p>
        ) : null}
        <p className="text-sm">
          Something wrong?{' '}
          <Link to="/account/corrections" className="underline">
            Ask for a correction of your name, PAN or date of birth
          </Link>{' '}
          or{' '}
          <Link to="/account/email" className="underline">
            change your e-mail address
          </Link>
          .
        </p>
        {loaderData.familyMembers.length ? (
          <Rows
            label="Family members"
            columns={['Family member PAN', 'Relation']}
            rows={loaderData.familyMembers.map((member) => [member.pan, member.relation])}
          />
        ) : null}
      </Section>

      <Section title="What you accepted">
        <Rows
          label="What you accepted"
          columns={['Document', 'Version', 'When', 'Where']}
          rows={loaderData.acceptances.map((row) => [row.document, row.version, row.acceptedAt, row.channel])}
        />
      </Section>

      <Section title="Payments">
        <Rows
          label="Payments"
          columns={['When', 'Services', 'Amount', 'How', 'Status']}
          rows={loaderData.payments.map((row) => [row.createdAt, row.services, row.amount, row.method, row.status])}
        />
      </Section>

      <Section title="Invoices and credit notes">
        <Rows
          label="Invoices and credit notes"
          columns={['Document', 'Date', 'Amount']}
          rows={loaderData.invoices.map((row) => [
            <Link key={row.number} to={taxDocumentHref(row.number)} className="underline">
              {row.title} {row.number}
            </Link>,
            row.issuedOn,
            row.amount,
          ])}
        />
      </Section>

      <Section title="Subscriptions">
        <Rows
          label="Subscriptions"
          columns={['Service', 'From', 'Until']}
          rows={loaderData.subscriptions.map((row) => [row.service, row.startsAt, row.endsAt])}
        />
      </Section>

      <Section title="Sign-in history">
        <Rows
          label="Sign-in history"
          columns={['Signed in', 'Session']}
          rows={loaderData.signIns.map((row) => [row.signedInAt, row.state])}
        />
      </Section>
    </div>
  )
}

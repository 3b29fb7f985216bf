import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { formatIndiaDateTime } from '~/domain/dates'
import { diffLines } from '~/domain/text-diff'
import { termsChange } from '~/server/account/terms-versions.server'
import { getSessionUser } from '~/server/session.server'
import type { Route } from './+types/terms-and-conditions.changes'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'What changed in the Terms and Conditions') },
]

/**
 * The change summary of the terms (docs/regulatory.md, A new version of the terms): the announced version against the
 * one the signed-in customer accepted (or else the one in force; with none announced, the one in force against the one
 * before it), line by line, worked out on the server so it reads without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request)
  const change = await termsChange(new Date(), user?.agreementVersion ?? null)
  if (!change) return { change: null }
  return {
    change: {
      before: change.before
        ? {
            version: change.before.version,
            effectiveFrom: formatIndiaDateTime(change.before.effectiveFrom),
            accepted: change.before.accepted,
          }
        : null,
      after: {
        version: change.after.version,
        publishedAt: formatIndiaDateTime(change.after.publishedAt),
        effectiveFrom: formatIndiaDateTime(change.after.effectiveFrom),
      },
      // With no earlier version recorded there is nothing to compare: the whole text is shown as it is.
      lines: change.before
        ? diffLines(change.before.text, change.after.text)
        : change.after.text.split('\n').map((text) => ({ kind: 'same' as const, text })),
    },
  }
}

export default function TermsChanges({ loaderData: { change } }: Route.ComponentProps) {
  if (!change) {
    return (
      <section className="max-w-3xl space-y-4">
        <h1 className="text-2xl font-semibold">What changed in the Terms and Conditions</h1>
        <p>No version of the Terms and Conditions has been recorded yet.</p>
      </section>
    )
  }
  const added = change.lines.filter((line) => line.kind === 'added').length
  const removed = change.lines.filter((line) => line.kind === 'removed').length
  return (
    <section aria-labelledby="changes-heading" className="max-w-3xl space-y-4">
      <h1 id="changes-heading" className="text-2xl font-semibold">
        What changed in the Terms and Conditions
      </h1>
      <p>
        Version {change.after.version}, published {change.after.publishedAt}, takes effect on{' '}
        {change.after.effectiveFrom}.{' '}
        {change.before
          ? `Compared with version ${change.before.version} (${change.before.accepted ? 'the one you accepted, ' : ''}in force from ${change.before.effectiveFrom}): ${added} paragraphs added or reworded, ${removed} removed or reworded.`
          : 'No earlier version was recorded, so the whole text is shown.'}
      </p>
      <p className="text-sm">
        Added text is marked{' '}
        <ins className="bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-50">like this</ins>, removed text{' '}
        <del className="bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-50">like this</del>.{' '}
        <Link to="/terms-and-conditions" className="text-blue-700 underline dark:text-blue-300">
          Read the full Terms and Conditions
        </Link>
        {' · '}
        <Link to="/terms/accept" className="text-blue-700 underline dark:text-blue-300">
          Accept the new version
        </Link>
      </p>
      <div className="space-y-2 rounded-md border border-gray-200 p-4 text-sm dark:border-gray-700">
        {change.lines.map((line, index) =>
          line.kind === 'added' ? (
            <p key={index}>
              <ins className="bg-green-100 text-green-900 no-underline dark:bg-green-900 dark:text-green-50">
                <span className="sr-only">Added: </span>
                {line.text}
              </ins>
            </p>
          ) : line.kind === 'removed' ? (
            <p key={index}>
              <del className="bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-50">
                <span className="sr-only">Removed: </span>
                {line.text}
              </del>
            </p>
          ) : (
            <p key={index} className="text-gray-700 dark:text-gray-300">
              {line.text}
            </p>
          ),
        )}
      </div>
    </section>
  )
}

import { Link } from 'react-router'

/** On a published report's or call's admin page: the way to write its correction, withdrawal or follow-up. */
export function ResearchFollowUpLink({ itemId }: { itemId: string }) {
  return (
    <section aria-labelledby="follow-up-heading" className="rounded-md border border-gray-300 p-4 dark:border-gray-700">
      <h2 id="follow-up-heading" className="text-lg font-semibold">
        Corrections and follow-ups
      </h2>
      <p className="mt-1">
        A published item never changes. To correct or withdraw it, or to say a call&apos;s target or stop-loss was
        revised or hit or that it closed,{' '}
        <Link to={`/admin/research/${itemId}/follow-up`} className="underline">
          write a follow-up
        </Link>
        : it is signed and sent to the same customers.
      </p>
    </section>
  )
}

import { Link } from 'react-router'
import type { ResearchItemView } from '~/domain/research'

// What a call or a follow-up adds to an item's page (docs/research.md): the notice on an original
// linking to each published follow-up, a follow-up's link back, and a call's terms.

export function ResearchFollowUpNotices({ item, linkBase }: { item: ResearchItemView; linkBase: string }) {
  return (
    <>
      {item.followUps.length ? (
        <section
          aria-labelledby="research-follow-ups"
          className="rounded-md border-2 border-amber-500 p-4 print:border-black"
        >
          <h2 id="research-follow-ups" className="text-lg font-semibold">
            This {item.kindWords.toLowerCase()} has {item.followUps.length === 1 ? 'a follow-up' : 'follow-ups'}
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {item.followUps.map((followUp) => (
              <li key={followUp.id}>
                {followUp.kindWords}, published {followUp.publishedAt}:{' '}
                <Link to={`${linkBase}/${followUp.id}`} className="underline">
                  {followUp.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {item.original ? (
        <p className="rounded-md border border-gray-300 p-3 dark:border-gray-700">
          {item.kindWords} of{' '}
          <Link to={`${linkBase}/${item.original.id}`} className="underline">
            {item.original.title}
          </Link>
          .
        </p>
      ) : null}
    </>
  )
}

export function ResearchFacts({ item }: { item: ResearchItemView }) {
  if (item.facts.length === 0) return null
  return (
    <section aria-labelledby="research-facts" className="rounded-md border border-gray-300 p-4 dark:border-gray-700">
      <h2 id="research-facts" className="text-lg font-semibold">
        {item.kindWords === 'Call' ? 'The call' : 'What changed'}
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {item.facts.map((fact) => (
          <div key={fact.label} className="contents">
            <dt className="font-medium">{fact.label}</dt>
            <dd className="break-words">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

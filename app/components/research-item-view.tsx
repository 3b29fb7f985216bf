import { Fragment } from 'react'
import { SEBI_STANDARD_WARNING } from '~/content/legal/regulatory'
import { ResearchFacts, ResearchFollowUpNotices } from './research-follow-up-notices'
import { RATING_DEFINITIONS_NOTE } from '~/domain/research-calls'
import { researchBlocks, type ResearchInline, type ResearchItemView } from '~/domain/research'

// One research item as the customer reads it and the analyst previews it: the body's small markup
// rendered as React elements (text is always text, never HTML), then the disclosures, the issuer
// and the signature (docs/research.md).

function Inline({ tokens }: { tokens: ResearchInline[] }) {
  return tokens.map((token, index) =>
    'href' in token ? (
      <a
        key={index}
        href={token.href}
        className="underline"
        {...(token.href.startsWith('https://') ? { rel: 'noopener noreferrer nofollow' } : {})}
      >
        {token.text}
      </a>
    ) : (
      <Fragment key={index}>{token.text}</Fragment>
    ),
  )
}

export function ResearchBody({ body }: { body: string }) {
  return (
    <div className="space-y-3">
      {researchBlocks(body).map((block, index) => {
        if (block.kind === 'heading')
          return (
            <h2 key={index} className="pt-2 text-xl font-semibold">
              {block.text}
            </h2>
          )
        if (block.kind === 'list')
          return (
            <ul key={index} className="list-disc space-y-1 pl-6">
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>
                  <Inline tokens={item} />
                </li>
              ))}
            </ul>
          )
        return (
          <p key={index}>
            <Inline tokens={block.inline} />
          </p>
        )
      })}
    </div>
  )
}

/** `linkBase`: where the item's follow-ups and original are read ("/research", or "/admin/research" in the console). */
export function ResearchItemArticle({ item, linkBase = '/research' }: { item: ResearchItemView; linkBase?: string }) {
  return (
    <article aria-labelledby="research-title" className="max-w-3xl space-y-4">
      <ResearchFollowUpNotices item={item} linkBase={linkBase} />
      <header>
        <h1 id="research-title" className="text-2xl font-semibold">
          {item.title}
        </h1>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          {item.publishedAt ? `Published ${item.publishedAt}` : 'Draft, not published'} · For {item.services.join(', ')}
        </p>
      </header>
      <ResearchFacts item={item} />
      {item.bodyHeading ? <h2 className="text-lg font-semibold">{item.bodyHeading}</h2> : null}
      <ResearchBody body={item.body} />
      {item.attachment ? (
        <section
          aria-labelledby="research-attachment"
          className="rounded-md border border-gray-300 p-3 dark:border-gray-700"
        >
          <h2 id="research-attachment" className="text-lg font-semibold">
            Attachment
          </h2>
          <p className="mt-1">
            {/* A download from a resource route: a plain link, never client-side navigation. */}
            <a href={`${linkBase}/${item.id}/attachment`} className="underline">
              Download {item.attachment.name}
            </a>{' '}
            (PDF, {item.attachment.size})
          </p>
          <p className="mt-1 text-sm break-all text-gray-700 dark:text-gray-300">
            SHA-256 of the file: <span className="font-mono">{item.attachment.sha256}</span>
          </p>
        </section>
      ) : null}
      <section aria-labelledby="research-disclosures" className="border-t border-gray-300 pt-4 dark:border-gray-700">
        <h2 id="research-disclosures" className="text-lg font-semibold">
          Disclosures
        </h2>
        <dl className="mt-2 space-y-2 text-sm">
          {item.disclosures.map((line) => (
            <div key={line.label}>
              <dt className="font-medium">{line.label}</dt>
              <dd>{line.answer}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-sm">
          {item.analystLine}. SEBI registration number {item.sebiRegistrationNumber}. BSE enlistment number{' '}
          {item.bseEnlistmentNumber}.
        </p>
        <p className="mt-2 text-sm font-medium">{SEBI_STANDARD_WARNING}</p>
      </section>
      {item.ratingDefinitions.length ? (
        <section
          aria-labelledby="research-ratings"
          className="border-t border-gray-300 pt-4 text-sm dark:border-gray-700"
        >
          <h2 id="research-ratings" className="text-lg font-semibold">
            What our ratings mean
          </h2>
          <dl className="mt-2 space-y-2">
            {item.ratingDefinitions.map((line) => (
              <div key={line.label}>
                <dt className="font-medium">{line.label}</dt>
                <dd>{line.value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2">{RATING_DEFINITIONS_NOTE}</p>
        </section>
      ) : null}
      {item.signingKeyFingerprint ? (
        <section
          aria-labelledby="research-signature"
          className="border-t border-gray-300 pt-4 text-sm dark:border-gray-700"
        >
          <h2 id="research-signature" className="text-lg font-semibold">
            Signature
          </h2>
          <p className="mt-1">
            Signed with Ed25519 by the key whose fingerprint is{' '}
            <span className="font-mono break-all">{item.signingKeyFingerprint}</span> (the public key is on our{' '}
            <a href="/disclosure#research-signing-key" className="underline">
              Disclosure
            </a>{' '}
            page). Content SHA-256: <span className="font-mono break-all">{item.contentSha256}</span>
          </p>
        </section>
      ) : null}
    </article>
  )
}

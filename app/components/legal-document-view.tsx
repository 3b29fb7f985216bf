import { Link } from 'react-router'
import {
  inlineTokens,
  numberedHeading,
  numberSections,
  type Block,
  type LegalDocument,
  type NumberedSection,
} from '~/content/legal/document'
import { ExternalLink } from './external-link'

export const legalLinkClass = 'text-green-700 underline underline-offset-2 dark:text-green-400'

/** A paragraph with its links: other websites open in a new tab, our pages and e-mail addresses do not. */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {inlineTokens(text).map((token, index) => {
        if (!('href' in token)) return token.text
        if (token.href.startsWith('https://')) {
          return (
            <ExternalLink key={index} href={token.href} className={`${legalLinkClass} break-words`}>
              {token.text}
            </ExternalLink>
          )
        }
        if (token.href.startsWith('/')) {
          return (
            <Link key={index} to={token.href} className={legalLinkClass}>
              {token.text}
            </Link>
          )
        }
        return (
          <a key={index} href={token.href} className={`${legalLinkClass} break-words`}>
            {token.text}
          </a>
        )
      })}
    </>
  )
}

const tableCellClass = 'border border-gray-300 px-3 py-2 text-left align-top dark:border-gray-700'

export function LegalBlocks({ blocks }: { blocks: Block[] }) {
  return blocks.map((block, index) => {
    if (typeof block === 'string')
      return (
        <p key={index} className="mt-3 leading-relaxed">
          <LinkedText text={block} />
        </p>
      )
    if ('list' in block)
      return (
        <ul key={index} className="mt-3 list-disc space-y-1.5 pl-6 leading-relaxed">
          {block.list.map((item, itemIndex) => (
            <li key={itemIndex}>
              <LinkedText text={item} />
            </li>
          ))}
        </ul>
      )
    return (
      <div
        key={index}
        role="region"
        aria-label={block.table.columns.join(', ')}
        tabIndex={0}
        className="mt-3 overflow-x-auto"
      >
        <table className="w-full min-w-[40rem] border-collapse text-sm">
          <thead>
            <tr>
              {block.table.columns.map((column) => (
                <th key={column} scope="col" className={`${tableCellClass} bg-gray-100 font-semibold dark:bg-gray-800`}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.table.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, cellIndex) => (
                  <td key={cellIndex} className={tableCellClass}>
                    <LinkedText text={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )
  })
}

const CONTENTS_MIN_SECTIONS = 4

const HEADING_CLASSES = ['mt-10 text-xl font-semibold', 'mt-6 text-lg font-semibold', 'mt-4 font-semibold'] as const

const SECTION_HEADINGS = ['h2', 'h3', 'h4', 'h5', 'h6'] as const

/** `level` 0 is a top-level section of a page's own document; an embedded one starts two levels lower. */
function Section({ section, depth, level }: { section: NumberedSection; depth: 0 | 1 | 2; level: number }) {
  const Heading = SECTION_HEADINGS[Math.min(level, SECTION_HEADINGS.length - 1)]!
  return (
    <section>
      <Heading id={section.id} className={`${HEADING_CLASSES[depth]} scroll-mt-20`}>
        {numberedHeading(section)}
      </Heading>
      <LegalBlocks blocks={section.blocks} />
      {section.sections.map((child) => (
        <Section key={child.id} section={child} depth={Math.min(depth + 1, 2) as 1 | 2} level={level + 1} />
      ))}
    </section>
  )
}

/**
 * A legal document as a page: its title is the page's one <h1>, sections are <h2>, sub-sections
 * <h3> (embedded under a page's <h2>, the title is <h3> and sections <h4>). With `contents`, a list of links to the top-level sections comes first:
 * by default on a page of its own with CONTENTS_MIN_SECTIONS sections or more, which on a phone is many screens long.
 */
export function LegalDocumentView({
  document,
  contents,
  embedded = false,
  children,
}: {
  document: LegalDocument
  contents?: boolean
  /** Inside another page, under its <h2> (the agreement step): the title is not the page's <h1>. */
  embedded?: boolean
  /** Shown under the date line, e.g. the agreement version. */
  children?: React.ReactNode
}) {
  const sections = numberSections(document)
  const withContents = contents ?? (!embedded && sections.length >= CONTENTS_MIN_SECTIONS)
  return (
    <article className="max-w-3xl">
      {embedded ? (
        <h3 className="text-lg font-semibold">{document.title}</h3>
      ) : (
        <h1 className="text-2xl font-semibold">{document.title}</h1>
      )}
      {document.dateLine ? <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">{document.dateLine}</p> : null}
      {children}
      <LegalBlocks blocks={document.intro ?? []} />
      {withContents ? (
        <nav aria-label="Contents" className="mt-6 rounded-lg border border-gray-200 p-4 dark:border-gray-700">
          <h2 className="font-semibold">Contents</h2>
          <ol className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className={legalLinkClass}>
                  {numberedHeading(section)}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {sections.map((section) => (
        <Section key={section.id} section={section} depth={0} level={embedded ? 2 : 0} />
      ))}
    </article>
  )
}

/** Under a versioned document's title: the recorded date of its text (when recorded) and its version. */
export function DocumentVersionLine({ version, updatedOn }: { version: string; updatedOn: string | null }) {
  return (
    <>
      {updatedOn ? <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">Last updated: {updatedOn}</p> : null}
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {version}</p>
    </>
  )
}

import { Link, useLocation } from 'react-router'
import { FormMessage } from '~/components/forms'
import { pageHref } from '~/domain/keyset'

/**
 * Previous and Next links of a keyset-paged list: plain links carrying the cursor in the query
 * string (the filters kept), so they work without JavaScript and can be bookmarked.
 */
export function Pager({
  label,
  next,
  previous,
  params = {},
}: {
  label: string
  next: string | null
  previous: string | null
  /** Set on the links too (e.g. which section of the page the cursor belongs to). */
  params?: Record<string, string>
}) {
  const location = useLocation()
  const query = new URLSearchParams(location.search)
  for (const [name, value] of Object.entries(params)) query.set(name, value)
  const search = query.toString()
  if (!next && !previous) return null
  return (
    <nav aria-label={label} className="mt-4 flex gap-6">
      {previous ? (
        <Link to={pageHref(search, 'before', previous)} className="underline" rel="prev">
          Previous page
        </Link>
      ) : null}
      {next ? (
        <Link to={pageHref(search, 'after', next)} className="underline" rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  )
}

/** Said when a page link's cursor was not one the list wrote: the list starts again at its first page. */
export const INVALID_CURSOR_MESSAGE = 'That page link was not valid (changed or cut short); showing the first page.'

export function InvalidCursorNotice({ invalid }: { invalid: boolean }) {
  if (!invalid) return null
  return (
    <div className="mt-4">
      <FormMessage tone="error">{INVALID_CURSOR_MESSAGE}</FormMessage>
    </div>
  )
}

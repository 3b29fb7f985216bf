import { createContext, useContext, type ReactNode } from 'react'

/** What the loaders of a request for a page's HTML set aside for the render (app/entry.server.tsx provides it). */
export const HtmlOnlyContext = createContext<Map<string, unknown> | undefined>(undefined)

/**
 * Renders `value` (the loader's, on a client navigation) or, on the server, the value a loader set
 * aside under `name` with `forHtmlOnly`. In the browser, hydrating a page whose loader data holds
 * `null` in its place, it keeps the server's markup as it is: React leaves the inside of an element
 * with `dangerouslySetInnerHTML` alone while hydrating, and the prop never changes after.
 * (docs/decisions/044-long-texts-once-in-the-html.md)
 */
export function HtmlOnce<Value>({
  name,
  value,
  children,
}: {
  name: string
  value: Value | null
  children: (value: Value) => ReactNode
}) {
  const setAside = useContext(HtmlOnlyContext)
  const shown = value ?? (setAside?.get(name) as Value | undefined)
  // Keyed apart, so a later render with the value (after an action) replaces the kept markup rather than patching it.
  if (shown != null) return <div key="rendered">{children(shown)}</div>
  return <div key="kept" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />
}

import type { AppLoadContext } from 'react-router'

/**
 * `value` for the loader data on a client navigation; on a request for the page's HTML, set aside
 * for the server's render only (`HtmlOnce` shows it) and `null` in the loader data. A long text (the
 * terms) then reaches the browser once, in the markup, instead of twice: in the markup and again in
 * the loader data the page hydrates from (docs/decisions/044-long-texts-once-in-the-html.md).
 */
export function forHtmlOnly<Value>(context: AppLoadContext | undefined, name: string, value: Value): Value | null {
  if (!context?.htmlOnly) return value
  context.htmlOnly.set(name, value)
  return null
}

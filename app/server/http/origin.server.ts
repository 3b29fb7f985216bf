const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The 403 of a write from another site (docs/api.md, "403 answers"). */
export const CROSS_SITE_REFUSAL_MESSAGE = 'Forbidden: this request was sent from another site.'

/**
 * A state-changing request sent by another site: its Origin names another host, or, without an
 * Origin, the browser marks it cross-site (Sec-Fetch-Site). Requests with neither header come from
 * non-browser clients, which carry no victim's cookies; they pass.
 */
export function isCrossSiteWrite(
  method: string,
  headers: { origin?: string; secFetchSite?: string },
  host: string,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false
  if (headers.origin) {
    if (headers.origin === 'null') return true
    try {
      return new URL(headers.origin).host !== host
    } catch {
      return true
    }
  }
  return headers.secFetchSite === 'cross-site'
}

/**
 * Only same-site paths are followed after sign-in: "/pay" yes; "//evil.example", "/\evil.example",
 * "https://evil.example" and anything else fall back. A path with other than ASCII (a decoded
 * "/%E2%98%83") comes back percent-encoded: a Location header carries ASCII only, and one that
 * does not is a 500.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  // A control character or backslash anywhere could be normalised into another host by a browser.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(to)) return fallback
  try {
    return to.replace(/[^\u0020-\u007e]+/gu, (text) => encodeURIComponent(text))
  } catch {
    // A lone surrogate has no UTF-8 encoding.
    return fallback
  }
}

/** `path` with `?redirectTo=` added when there is somewhere to return to. */
export function withRedirectTo(path: string, redirectTo: string | null | undefined): string {
  if (!redirectTo || redirectTo === '/') return path
  return `${path}?${new URLSearchParams({ redirectTo })}`
}

/**
 * Only same-site paths are followed after sign-in: "/pay" yes; "//evil.example", "/\evil.example",
 * "https://evil.example" and anything else fall back.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  // A control character or backslash anywhere could be normalised into another host by a browser.
  if (/[\\\u0000-\u001f]/.test(to)) return fallback
  return to
}

/** `path` with `?redirectTo=` added when there is somewhere to return to. */
export function withRedirectTo(path: string, redirectTo: string | null | undefined): string {
  if (!redirectTo || redirectTo === '/') return path
  return `${path}?${new URLSearchParams({ redirectTo })}`
}

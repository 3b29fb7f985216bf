import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

/** A page that answers within this long shows no loading bar, so quick ones do not flicker. */
export const NAVIGATION_INDICATOR_DELAY_MS = 300

/**
 * Whether the next page has been on its way for longer than NAVIGATION_INDICATOR_DELAY_MS (a link
 * followed, or a form's answer loading) on a slow network.
 */
export function useSlowNavigation(): boolean {
  const navigation = useNavigation()
  const pendingKey = navigation.state === 'idle' ? null : navigation.location.key
  const [slowKey, setSlowKey] = useState<string | null>(null)
  useEffect(() => {
    if (!pendingKey) return
    const timer = setTimeout(() => setSlowKey(pendingKey), NAVIGATION_INDICATOR_DELAY_MS)
    return () => clearTimeout(timer)
  }, [pendingKey])
  return pendingKey !== null && slowKey === pendingKey
}

/**
 * The site's loading indicator: a bar along the top of the window, and a polite live region that screen
 * readers announce once. The region is always present (empty while idle), so the announcement is heard;
 * it has no status role, so a page's own status message stays the page's one status.
 */
export function NavigationProgress({ loading }: { loading: boolean }) {
  return (
    <>
      <div
        aria-hidden="true"
        data-loading={loading || undefined}
        className="pointer-events-none fixed inset-x-0 top-0 z-50 h-1 origin-left scale-x-0 bg-green-600 opacity-0 transition-transform duration-700 data-loading:scale-x-75 data-loading:opacity-100 motion-reduce:transition-none"
      />
      <p aria-live="polite" className="sr-only">
        {loading ? 'Loading the page…' : ''}
      </p>
    </>
  )
}

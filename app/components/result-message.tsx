import { useEffect, useRef, type ReactNode } from 'react'
import { FormMessage, type MessageTone } from './forms'

/**
 * The answer to an action that comes back on the same page (a payment refused, a checkout closed, an
 * admin's confirm or reject): brought into view and focused when it appears or changes, so a phone's
 * screen (360 px) never looks unchanged and a screen reader reads it. `answer` is what changed: pass
 * the action's data (or the message itself), so the same words given twice are shown twice.
 * Without JavaScript the server renders it near the top of the page, where a new page starts.
 */
export function ResultMessage({ tone, answer, children }: { tone: MessageTone; answer: unknown; children: ReactNode }) {
  const ref = useRevealOnChange<HTMLDivElement>(answer)
  return (
    <div ref={ref} tabIndex={-1} className="scroll-mt-20 rounded-md outline-offset-2">
      <FormMessage tone={tone}>{children}</FormMessage>
    </div>
  )
}

/** Scrolls the element into view and focuses it (tabIndex -1) whenever `answer` changes, and when it first appears. */
export function useRevealOnChange<T extends HTMLElement>(answer: unknown) {
  const ref = useRef<T>(null)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    // Centred: a sticky header must not cover it. Instant, as reduced motion asks and a result needs.
    element.scrollIntoView({ block: 'center' })
    element.focus({ preventScroll: true })
  }, [answer])
  return ref
}

import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'

/**
 * A dialog addressed by the URL (e.g. `/pay?dialog=manual`): a link opens it without JavaScript and
 * `closeTo` closes it. The page behind it is locked from scrolling with or without JavaScript (app.css,
 * `html:has(...)`). With JavaScript it also moves focus into it, and closes on
 * a backdrop click or Escape (as the original store's modals: scroll locked, closed by the backdrop or the
 * close button; docs/product.md section 2).
 */
export function Modal({ title, closeTo, children }: { title: string; closeTo: string; children: ReactNode }) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  useEffect(() => {
    document.body.classList.add('overflow-hidden')
    panel.current?.focus()
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') navigate(closeTo, { preventScrollReset: true, replace: true })
    }
    document.addEventListener('keydown', closeOnEscape)
    return () => {
      document.body.classList.remove('overflow-hidden')
      document.removeEventListener('keydown', closeOnEscape)
    }
  }, [closeTo, navigate])

  return (
    <div className="fixed inset-0 z-30 flex items-center justify-center p-4">
      <Link
        to={closeTo}
        replace
        preventScrollReset
        aria-hidden="true"
        tabIndex={-1}
        className="absolute inset-0 bg-black/50"
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative max-h-[90dvh] w-full max-w-lg overflow-y-auto rounded-lg bg-white p-5 shadow-xl dark:bg-gray-900"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-semibold">
            {title}
          </h2>
          <Link
            to={closeTo}
            replace
            preventScrollReset
            className="rounded px-2 text-2xl leading-none"
            aria-label="Close"
          >
            ×
          </Link>
        </div>
        <div className="mt-3">{children}</div>
      </div>
    </div>
  )
}

import { useSyncExternalStore } from 'react'
import { secondaryButtonClass } from './forms'

const noChanges = () => () => {}

/**
 * Opens the browser's print dialog (where "Save as PDF" is), once a script runs to press it: the
 * server's page and a page without JavaScript have no button, and their sentence says how instead.
 */
export function PrintButton() {
  const scripted = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  )
  if (!scripted) return null
  return (
    <button type="button" onClick={() => window.print()} className={`${secondaryButtonClass} print:hidden`}>
      Print or save as PDF
    </button>
  )
}

import { Link } from 'react-router'
import type { Flash, FlashTone } from '~/domain/flash'

const toneClass: Record<FlashTone, string> = {
  success: 'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
  error: 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
}

/**
 * What the last action said (app/server/http/flash.server.ts): an error is an alert, the rest a status,
 * so screen readers announce it; the three tones differ in colour and in the word before the text.
 */
export function FlashMessage({ flash }: { flash: Flash }) {
  return (
    <div
      role={flash.tone === 'error' ? 'alert' : 'status'}
      data-tone={flash.tone}
      className={`mb-6 rounded-md border p-3 text-sm break-words ${toneClass[flash.tone]}`}
    >
      <p className="font-medium">{flash.message}</p>
      {flash.details?.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {flash.details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      {flash.link ? (
        <p className="mt-2">
          <Link to={flash.link.href} className="font-medium underline">
            {flash.link.label}
          </Link>
        </p>
      ) : null}
    </div>
  )
}

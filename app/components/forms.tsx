import { useId, type InputHTMLAttributes, type ReactNode } from 'react'

export function ErrorList({ id, errors }: { id?: string; errors?: readonly string[] | null }) {
  if (!errors?.length) return null
  return (
    <ul id={id} className="mt-1 space-y-1 text-sm text-red-700 dark:text-red-400">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  )
}

/** A labelled input whose errors are announced with it (aria-invalid, aria-describedby). */
export function Field({
  label,
  hint,
  errors,
  inputProps,
}: {
  label: ReactNode
  hint?: ReactNode
  errors?: readonly string[] | null
  inputProps: InputHTMLAttributes<HTMLInputElement> & { name: string }
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-errors` : undefined
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
      <input
        {...inputProps}
        id={id}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className="mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base dark:border-gray-600 dark:bg-gray-900"
      />
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

export const primaryButtonClass =
  'inline-flex items-center justify-center rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-60'
export const secondaryButtonClass =
  'inline-flex items-center justify-center rounded-md border border-gray-300 px-4 py-2 font-medium hover:bg-gray-100 disabled:opacity-60 dark:border-gray-600 dark:hover:bg-gray-800'

/** A form-level message: a refusal (role alert) or news (role status). */
export function FormMessage({ tone, children }: { tone: 'error' | 'info'; children: ReactNode }) {
  return tone === 'error' ? (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
      {children}
    </p>
  ) : (
    <p
      role="status"
      className="rounded-md bg-green-50 p-3 text-sm text-green-900 dark:bg-green-950 dark:text-green-100"
    >
      {children}
    </p>
  )
}

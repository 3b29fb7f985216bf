import type { SubmissionResult } from '@conform-to/react'
import {
  useId,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'

// The form kit every page uses. It takes plain props (Conform's getInputProps and friends fit
// them) and imports neither Zod nor Conform, so /auth can use it and stay within its JavaScript budget.
//
// Which form mode (docs/architecture.md, "Forms"): every form is checked on the server by its
// schema's parseWithZod and works without JavaScript; the mode decides only what the browser adds.
// - Server-checked: the action answers `submission.reply()`, the page shows it with `repliedField`.
//   The default, and the rule for customer pages in the Lighthouse set (/auth, /pay, /subscriptions,
//   /complaints/new): they must not load Zod or Conform (decision 022).
// - Conform in the browser (`useForm` with the same schema): for a form whose fields are checked as
//   they are typed and where the checks save a round trip that matters (several fields, rules a
//   person gets wrong: the profile, corrections, family members, the admin's service and month forms).
//   A customer page loads those checks after the page (/details step 1), never in its first chunks.

/** What a field may receive: Conform's props carry a `key` that resets the field with the form. */
type WithKey<Props> = Props & { key?: string | null }

/**
 * A field of a form parsed on the server only (no Conform in the page's JavaScript): its errors
 * and what was typed, from the action's `submission.reply()`.
 */
export function repliedField(result: SubmissionResult<string[]> | undefined, name: string) {
  const typed = result?.initialValue?.[name]
  return { errors: result?.error?.[name] ?? undefined, defaultValue: typeof typed === 'string' ? typed : undefined }
}

/** A control with errors (aria-invalid) gets a red border, with or without JavaScript. */
const invalidControlClass = 'aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400'

const controlClass = `mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base dark:border-gray-600 dark:bg-gray-900 ${invalidControlClass}`

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

type FieldFrame = {
  label: ReactNode
  hint?: ReactNode
  errors?: readonly string[] | null
  /** The wrapper's classes (a field in a row of filters is as wide as its content). */
  className?: string
}

/** The ids a control points at: its hint, then its errors; `aria-invalid` while it has errors. */
function useDescribedControl(
  ownId: string | undefined,
  hint: ReactNode,
  errors?: readonly string[] | null,
  invalid?: boolean,
) {
  const fallbackId = useId()
  const id = ownId ?? fallbackId
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-errors` : undefined
  return {
    id,
    hintId,
    errorId,
    describedBy: {
      'aria-invalid': errorId || invalid ? true : undefined,
      'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
    },
  } as const
}

function FieldLayout({
  id,
  label,
  hint,
  hintId,
  errors,
  errorId,
  className,
  children,
}: FieldFrame & { id: string; hintId?: string; errorId?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
      {children}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** A labelled input whose hint and errors are announced with it (aria-invalid, aria-describedby). */
export function Field({
  inputProps: { key, ...inputProps },
  invalid,
  controlClassName = controlClass,
  ...frame
}: FieldFrame & {
  inputProps: WithKey<InputHTMLAttributes<HTMLInputElement> & { name: string }>
  /** Invalid though its message is shown elsewhere (a refused upload's alert). */
  invalid?: boolean
  /** For a file input, whose button is styled instead of a text box. */
  controlClassName?: string
}) {
  const control = useDescribedControl(inputProps.id, frame.hint, frame.errors, invalid)
  return (
    <FieldLayout {...frame} {...control}>
      <input
        key={key ?? undefined}
        {...inputProps}
        id={control.id}
        {...control.describedBy}
        className={controlClassName}
      />
    </FieldLayout>
  )
}

/** A labelled text area, wired like `Field`. */
export function TextareaField({
  textareaProps: { key, ...textareaProps },
  ...frame
}: FieldFrame & { textareaProps: WithKey<TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string }> }) {
  const control = useDescribedControl(textareaProps.id, frame.hint, frame.errors)
  return (
    <FieldLayout {...frame} {...control}>
      <textarea
        key={key ?? undefined}
        {...textareaProps}
        id={control.id}
        {...control.describedBy}
        className={controlClass}
      />
    </FieldLayout>
  )
}

/** A checkbox with its label beside it, wired like `Field`. */
export function CheckboxField({
  inputProps: { key, ...inputProps },
  alsoDescribedBy,
  label,
  hint,
  errors,
  className,
}: FieldFrame & {
  inputProps: WithKey<InputHTMLAttributes<HTMLInputElement> & { name: string }>
  /** Ids of text elsewhere on the page that the box refers to (a quoted statement, a link to read first). */
  alsoDescribedBy?: string
}) {
  const control = useDescribedControl(inputProps.id, hint, errors)
  const describedBy = [alsoDescribedBy, control.describedBy['aria-describedby']].filter(Boolean).join(' ') || undefined
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          key={key ?? undefined}
          type="checkbox"
          {...inputProps}
          id={control.id}
          {...control.describedBy}
          aria-describedby={describedBy}
          className="mt-1 h-5 w-5 shrink-0 accent-green-700"
        />
        <label htmlFor={control.id} className="text-sm">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={control.hintId} className="pl-8 text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
      <ErrorList id={control.errorId} errors={errors} />
    </div>
  )
}

export type SelectOption = { value: string; label: string }

/** A labelled drop-down, wired like `Field`; `placeholder` is a first option with no value. */
export function SelectField({
  selectProps: { key, ...selectProps },
  options,
  placeholder,
  ...frame
}: FieldFrame & {
  selectProps: WithKey<SelectHTMLAttributes<HTMLSelectElement> & { name: string }>
  options: readonly SelectOption[]
  placeholder?: string
}) {
  const control = useDescribedControl(selectProps.id, frame.hint, frame.errors)
  return (
    <FieldLayout {...frame} {...control}>
      <select key={key ?? undefined} {...selectProps} id={control.id} {...control.describedBy} className={controlClass}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldLayout>
  )
}

/** One choice among a few, as radio buttons in a fieldset whose legend names the choice. */
export function RadioGroupField({
  legend,
  name,
  options,
  defaultValue,
  errors,
}: {
  legend: ReactNode
  name: string
  options: readonly SelectOption[]
  defaultValue?: string
  errors?: readonly string[] | null
}) {
  const errorId = `${useId()}-errors`
  const invalid = Boolean(errors?.length)
  return (
    <fieldset aria-describedby={invalid ? errorId : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-4">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2">
            <input type="radio" name={name} value={option.value} defaultChecked={defaultValue === option.value} />
            {option.label}
          </label>
        ))}
      </div>
      <ErrorList id={invalid ? errorId : undefined} errors={errors} />
    </fieldset>
  )
}

/**
 * A submit button that reads as a checkbox: without JavaScript a click posts its form (the page
 * comes back with the box ticked or not); with it, `onClick` may take the click over.
 */
export function CheckboxButton({
  checked,
  coversCard = false,
  ...buttonProps
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'role' | 'type' | 'className' | 'children'> & {
  checked: boolean
  /** The click target stretches over the nearest positioned ancestor (a card), so the whole card toggles. */
  coversCard?: boolean
}) {
  // A 44 px target around a 24 px box.
  return (
    <button
      {...buttonProps}
      type="submit"
      role="checkbox"
      aria-checked={checked}
      className={`group -m-2.5 flex h-11 w-11 shrink-0 cursor-pointer items-center disabled:cursor-not-allowed disabled:opacity-50 justify-center rounded-md ${coversCard ? "after:absolute after:inset-0 after:rounded-lg after:content-['']" : ''}`}
    >
      <span className="flex h-6 w-6 items-center justify-center rounded border-2 border-green-700 bg-white group-aria-checked:bg-green-700 dark:bg-gray-900 dark:group-aria-checked:bg-green-600">
        {checked ? (
          <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 text-white">
            <path
              d="M3 8.5l3 3 7-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        ) : null}
      </span>
    </button>
  )
}

export const primaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-60'
export const secondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-md border border-gray-300 px-4 py-2 font-medium hover:bg-gray-100 disabled:opacity-60 dark:border-gray-600 dark:hover:bg-gray-800'

export type ButtonStatus = 'idle' | 'pending' | 'success'

/**
 * A submit button that shows its form's state: a spinner while it is on its way (the button is
 * busy and disabled, so a second click sends nothing), a tick once it succeeded. The label stays
 * as it is, so the button's accessible name never changes under a screen reader or a test; what
 * the submission did is said by the page's own message.
 */
export function StatusButton({
  status = 'idle',
  variant = 'primary',
  className,
  disabled,
  children,
  ...buttonProps
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  status?: ButtonStatus
  variant?: 'primary' | 'secondary'
}) {
  const pending = status === 'pending'
  return (
    <button
      type="submit"
      {...buttonProps}
      disabled={disabled ?? pending}
      aria-busy={pending || undefined}
      className={className ?? (variant === 'primary' ? primaryButtonClass : secondaryButtonClass)}
    >
      {pending ? <Spinner /> : status === 'success' ? <Tick /> : null}
      {children}
    </button>
  )
}

/** The pending sign of a button, or of a link whose page is on its way. */
export function Spinner() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 animate-spin motion-reduce:animate-none">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="3" opacity="0.3" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

function Tick() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4">
      <path
        d="M3 8.5l3 3 7-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

export type MessageTone = 'error' | 'success' | 'info'

const messageClass: Record<MessageTone, string> = {
  error: 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
  success: 'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
}

/**
 * A form-level message: a refusal (`error`, role alert), something done (`success`) or neutral news
 * such as a checkout the customer closed (`info`); the last two are role status. Each has its own
 * colour, so news never reads as an error.
 */
export function FormMessage({ tone, children }: { tone: MessageTone; children: ReactNode }) {
  return (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      data-tone={tone}
      className={`rounded-md border p-3 text-sm ${messageClass[tone]}`}
    >
      {children}
    </p>
  )
}

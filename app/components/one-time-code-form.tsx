import type { FormHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react'
import { Form } from 'react-router'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { Field, FormMessage, StatusButton, type ButtonStatus } from './forms'

/** A one-time code's box: the number pad, the phone's autofill of a code from an SMS, 6 digits. */
const ONE_TIME_CODE_INPUT = { type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } as const

/** What a page says once it has sent a code. */
export const codeSentMessage = (sentTo: string) =>
  `We sent a 6-digit code to ${sentTo}. It is valid for ${OTP_VALID_MINUTES} minutes.`

/**
 * The "we sent you a code, type it" step of every form that asks for one (/auth, closing an
 * account, a new e-mail address, a visitor's complaint): the news of the code, its box (posted as
 * `code`, with its hint and errors announced) and the button that posts it with its `intent`.
 * A plain post, so it works without JavaScript; a Conform form passes its form and field props.
 */
export function OneTimeCodeForm({
  sentTo,
  notice,
  label = '6-digit code',
  errors,
  codeProps,
  formProps,
  intent,
  submitLabel,
  status,
  disabled,
  children,
}: {
  /** Where the code went, as the customer knows it: the box's hint. */
  sentTo: string
  /** Said above the box (what was sent, or why no new code was); nothing when null. */
  notice?: ReactNode
  label?: string
  errors?: readonly string[] | null
  /** More for the box: Conform's `getInputProps`, or the browser's own checks on a form the server alone parses. */
  codeProps?: InputHTMLAttributes<HTMLInputElement> & { key?: string | null }
  formProps?: Pick<FormHTMLAttributes<HTMLFormElement>, 'id' | 'onSubmit' | 'noValidate'> & { action?: string }
  intent: string
  submitLabel: string
  status: ButtonStatus
  disabled?: boolean
  /** The form's error and its hidden fields, before the box. */
  children?: ReactNode
}) {
  return (
    <Form method="post" {...formProps} className="space-y-4">
      {children}
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <Field
        label={label}
        hint={`Sent to ${sentTo}`}
        errors={errors}
        inputProps={{ name: 'code', ...codeProps, ...ONE_TIME_CODE_INPUT }}
      />
      <StatusButton name="intent" value={intent} status={status} disabled={disabled}>
        {submitLabel}
      </StatusButton>
    </Form>
  )
}

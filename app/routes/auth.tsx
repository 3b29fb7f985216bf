import { siteTitle } from '~/domain/business-details'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useState } from 'react'
import { data, Form, redirect } from 'react-router'
import { Field, FormMessage, repliedField, SelectField, StatusButton } from '~/components/forms'
import { codeSentMessage, OneTimeCodeForm } from '~/components/one-time-code-form'
import { useIsPending } from '~/components/use-is-pending'
import { safeRedirect, withRedirectTo } from '~/domain/redirect'
import {
  DEFAULT_COUNTRY,
  MOBILE_NUMBER_MESSAGE,
  INDIAN_MOBILE_MESSAGE,
  isIndianMobileNumber,
  nationalMobileNumber,
  SignInFormSchema,
  signInReason,
  toE164,
} from '~/domain/sign-in'
import {
  forgetPendingPhone,
  phoneOtpAuthenticator,
  readPendingPhone,
  readSignInDevice,
  rememberPendingPhone,
  requireAnonymous,
  SignInError,
  signInDeviceCookieFor,
} from '~/server/auth/sign-in.server'
import { DIAL_CODE_OPTIONS, dialCodeFor } from '~/server/auth/dial-codes.server'
import { readForm } from '~/server/http/form-data.server'
import { requestOtp, resendCooldownMs } from '~/server/auth/one-time-codes.server'
import { createSession } from '~/server/session.server'
import type { Route } from './+types/auth'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Login or sign up') }]

/** A refused check's `Retry-After` reaches the browser, beside the layout's headers (the flash cookie's clearing). */
export function headers({ parentHeaders, actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  if (!retryAfter) return parentHeaders
  const headers = new Headers(parentHeaders)
  headers.set('Retry-After', retryAfter)
  return headers
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  const pendingPhone = await readPendingPhone(request)
  const searchParams = new URL(request.url).searchParams
  return {
    pendingPhone,
    reason: signInReason(safeRedirect(searchParams.get('redirectTo'))),
    resendInSeconds: pendingPhone ? Math.ceil((await resendCooldownMs(pendingPhone)) / 1000) : 0,
    countries: pendingPhone ? [] : DIAL_CODE_OPTIONS,
    // From the loader, so the page's JavaScript does not pull in the form schemas (and Zod) of ~/domain/sign-in.
    defaultCountry: DEFAULT_COUNTRY,
    codeSent: codeSentFrom(searchParams.get('sent')),
  }
}

/** "1": a code was sent just now; "earlier": the number must wait, a code sent a moment ago is on its way. */
type CodeSent = '1' | 'earlier'
const codeSentFrom = (value: string | null): CodeSent | null => (value === '1' || value === 'earlier' ? value : null)

// Parsed on the server only: the page's JavaScript carries neither Zod nor Conform (see the budget in bench/budgets.ts).
type ActionResult = { formError?: string; result?: SubmissionResult<string[]> }

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request)
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'))
  const backToAuth = (sent?: CodeSent) => {
    const target = new URL(withRedirectTo('/auth', redirectTo), url)
    if (sent) target.searchParams.set('sent', sent)
    return `${target.pathname}${target.search}`
  }
  const submission = parseWithZod(await readForm(request.clone()), { schema: SignInFormSchema })
  if (submission.status !== 'success') {
    if (submission.payload.intent === 'send') return data<ActionResult>({ result: submission.reply() }, 400)
    return data<ActionResult>({ formError: 'Something was missing from the form. Please try again.' }, 400)
  }
  const form = submission.value

  if (form.intent === 'send') {
    const { country, mobile } = form
    const dialCode = dialCodeFor(country)
    if (!dialCode) {
      return data<ActionResult>(
        { result: submission.reply({ fieldErrors: { country: ['Choose your country code.'] } }) },
        400,
      )
    }
    const national = nationalMobileNumber(mobile, dialCode)
    if (!national) {
      return data<ActionResult>({ result: submission.reply({ fieldErrors: { mobile: [MOBILE_NUMBER_MESSAGE] } }) }, 400)
    }
    if (dialCode === '91' && !isIndianMobileNumber(national)) {
      return data<ActionResult>({ result: submission.reply({ fieldErrors: { mobile: [INDIAN_MOBILE_MESSAGE] } }) }, 400)
    }
    const phone = toE164(dialCode, national)
    const sent = await requestOtp({ phone, ip: context.clientIp })
    if (!sent.ok && sent.refusedBy === 'address')
      return data<ActionResult>({ formError: sent.message, result: submission.reply() }, 429)
    // A number that must wait was sent a code a moment ago (by whoever asked): its holder can enter it.
    const headers = new Headers({ 'Set-Cookie': await rememberPendingPhone(phone) })
    const device = await signInDeviceCookieFor(request)
    if (device) headers.append('Set-Cookie', device)
    return redirect(backToAuth(sent.ok ? '1' : 'earlier'), { headers })
  }

  if (form.intent === 'resend') {
    const phone = await readPendingPhone(request)
    if (!phone) return redirect(backToAuth())
    const sent = await requestOtp({ phone, ip: context.clientIp })
    if (!sent.ok) return data<ActionResult>({ formError: sent.message }, 429)
    return redirect(backToAuth('1'))
  }

  if (form.intent === 'change') {
    return redirect(backToAuth(), { headers: { 'Set-Cookie': await forgetPendingPhone() } })
  }

  // form.intent === 'verify'
  const authenticator = phoneOtpAuthenticator(async () => ({
    phone: await readPendingPhone(request),
    ip: context.clientIp,
    device: await readSignInDevice(request),
  }))
  try {
    const userId = await authenticator.authenticate('phone-otp', request)
    const headers = new Headers()
    headers.append('Set-Cookie', await createSession(userId))
    headers.append('Set-Cookie', await forgetPendingPhone())
    // The wizard sends a complete profile straight on to redirectTo.
    return redirect(redirectTo.startsWith('/details') ? redirectTo : withRedirectTo('/details', redirectTo), {
      headers,
    })
  } catch (error) {
    if (error instanceof SignInError) {
      if (error.retryAfterMs === undefined) return data<ActionResult>({ formError: error.message }, 400)
      return data<ActionResult>(
        { formError: error.message },
        { status: 429, headers: { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) } },
      )
    }
    throw error
  }
}

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  const { pendingPhone } = loaderData
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Login or sign up</h1>
      {loaderData.reason ? <p className="mt-2">{loaderData.reason}</p> : null}
      <div className="mt-4 space-y-4">
        {actionData?.formError ? <FormMessage tone="error">{actionData.formError}</FormMessage> : null}
        {pendingPhone ? (
          <VerifyCodeForm phone={pendingPhone} {...loaderData} actionData={actionData} />
        ) : (
          <SendCodeForm
            countries={loaderData.countries}
            defaultCountry={loaderData.defaultCountry}
            actionData={actionData}
          />
        )}
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Our team will never ask you for this code, by phone, WhatsApp or e-mail. Do not share it with anyone.
        </p>
      </div>
    </section>
  )
}

function SendCodeForm({
  countries,
  defaultCountry,
  actionData,
}: {
  countries: Route.ComponentProps['loaderData']['countries']
  defaultCountry: string
  actionData: ActionResult | undefined
}) {
  const pending = useIsPending()
  const country = repliedField(actionData?.result, 'country')
  const mobile = repliedField(actionData?.result, 'mobile')
  return (
    <Form method="post" className="space-y-4" noValidate={false}>
      <SelectField
        label="Country code"
        errors={country.errors}
        selectProps={{ id: 'country', name: 'country', defaultValue: country.defaultValue || defaultCountry }}
        options={countries}
      />
      <Field
        label="Mobile number"
        hint="10 digits. Spaces, dashes and the country code are fine."
        errors={mobile.errors}
        inputProps={{
          name: 'mobile',
          type: 'tel',
          autoComplete: 'tel-national',
          required: true,
          // Room for a pasted "+91 98765 43210" or "0091-98765-43210"; the server reads the digits and says what is wrong.
          maxLength: 24,
          defaultValue: mobile.defaultValue,
        }}
      />
      {/* The notice at collection (DPDP Act section 5), before the number is sent. */}
      <p id="mobile-notice" className="text-sm text-gray-700 dark:text-gray-300">
        Privacy notice: we use your mobile number to send you sign-in codes by SMS and to contact you about your
        account, payments and subscriptions; nothing else, and we do not sell it. Read what we keep and for how long in
        our{' '}
        <a href="/privacy-policy" className="text-blue-700 underline dark:text-blue-300">
          Privacy Policy
        </a>
        .
      </p>
      <StatusButton name="intent" value="send" status={pending ? 'pending' : 'idle'}>
        Send OTP
      </StatusButton>
    </Form>
  )
}

function VerifyCodeForm({
  phone,
  resendInSeconds,
  codeSent,
  actionData,
}: {
  phone: string
  resendInSeconds: number
  codeSent: CodeSent | null
  actionData: ActionResult | undefined
}) {
  const pending = useIsPending()
  const verifying = useIsPending({ fields: { intent: 'verify' } })
  const notice = actionData
    ? null
    : codeSent === '1'
      ? codeSentMessage(phone)
      : codeSent === 'earlier'
        ? `A code was sent to ${phone} a moment ago. Enter it, or ask for another when the wait below ends.`
        : null
  return (
    <>
      <OneTimeCodeForm
        sentTo={phone}
        notice={notice}
        codeProps={{ required: true, pattern: '[0-9]{6}', title: 'The 6-digit code from the SMS', autoFocus: true }}
        intent="verify"
        submitLabel="Verify OTP"
        status={verifying ? 'pending' : 'idle'}
        disabled={pending}
      />
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <ResendButton seconds={resendInSeconds} disabled={pending} />
        <StatusButton name="intent" value="change" variant="secondary" disabled={pending} formNoValidate>
          Change number
        </StatusButton>
      </Form>
    </>
  )
}

/** Without JavaScript the button always submits (the server explains any wait); with it, it counts down. */
function ResendButton({ seconds, disabled }: { seconds: number; disabled: boolean }) {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null)
  useEffect(() => {
    const endsAt = Date.now() + seconds * 1000
    const tick = () => setSecondsLeft(Math.max(0, Math.ceil((endsAt - Date.now()) / 1000)))
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [seconds])
  const waiting = secondsLeft !== null && secondsLeft > 0
  return (
    <>
      <StatusButton name="intent" value="resend" variant="secondary" disabled={disabled || waiting} formNoValidate>
        Resend code
      </StatusButton>
      <span className="text-sm text-gray-700 dark:text-gray-300">
        {secondsLeft === null
          ? seconds > 0 && `You can ask for a new code in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`
          : waiting && `You can resend in ${secondsLeft} s.`}
      </span>
    </>
  )
}

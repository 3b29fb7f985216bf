import { siteTitle } from '~/domain/business-details'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import {
  CheckboxField,
  Field,
  FormMessage,
  repliedField,
  SelectField,
  StatusButton,
  TextareaField,
} from '~/components/forms'
import { LinkedText } from '~/components/legal-document-view'
import { codeSentMessage, OneTimeCodeForm } from '~/components/one-time-code-form'
import { COMPLAINT_ESCALATION_LADDER } from '~/content/legal/complaint-escalation'
import { useIsPending } from '~/components/use-is-pending'
import { ATTACHMENT_FIELD_NAME, COMPLAINT_CATEGORIES, COMPLAINT_TEXT_MAX_CHARS } from '~/domain/complaints'
import { PAN_CARD_ACCEPT } from '~/domain/pan-card-image'
import { complaintPageAction, complaintPageState } from '~/server/complaints/filing-steps.server'
import type { Route } from './+types/complaints.new'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'File a complaint') }]

export async function loader({ request }: Route.LoaderArgs) {
  return complaintPageState(request)
}

export async function action({ request, context }: Route.ActionArgs) {
  const answer = await complaintPageAction(request, context.clientIp)
  const headers = new Headers(answer.headers)
  if (answer.setCookie) headers.append('Set-Cookie', answer.setCookie)
  if (answer.redirectTo) return redirect(answer.redirectTo, { headers })
  return data({ formError: answer.formError, result: answer.result }, { status: answer.status, headers })
}

type ActionData = Route.ComponentProps['actionData']

export default function NewComplaint({ loaderData, actionData }: Route.ComponentProps) {
  const { state, filed } = loaderData
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold">File a complaint</h1>
      <div className="mt-4 space-y-4">
        {filed ? (
          <>
            <FormMessage tone="success">
              Your complaint {filed.reference} is filed. We will resolve it by {filed.dueOn}. We are sending you the
              reference and this date by e-mail or SMS.
            </FormMessage>
            <p className="text-sm">
              <LinkedText text={COMPLAINT_ESCALATION_LADDER} />
            </p>
            {/* The filed complaint leaves the form, so a second press cannot send it again. */}
            <p>
              <Link to="/complaints/new" className="underline">
                File another complaint
              </Link>
            </p>
          </>
        ) : actionData?.formError ? (
          <FormMessage tone="error">{actionData.formError}</FormMessage>
        ) : null}
        {filed ? null : state.step === 'contact' ? (
          <ContactStep />
        ) : state.step === 'code' ? (
          <CodeStep contact={state.contact} sent={state.sent} hasAnswer={!!actionData} />
        ) : (
          <ComplaintStep filingAs={state.filingAs} signedIn={state.signedIn} actionData={actionData} />
        )}
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {state.step === 'form' && state.signedIn ? (
            <Link to="/complaints" className="underline">
              See your complaints and our answers
            </Link>
          ) : (
            <>
              Have an account?{' '}
              <Link to="/auth?redirectTo=/complaints/new" className="underline">
                Log in
              </Link>{' '}
              to file it and follow our answers on the site.
            </>
          )}{' '}
          How we handle complaints:{' '}
          <Link to="/grievance-redressal" className="underline">
            grievance redressal
          </Link>
          .
        </p>
      </div>
    </section>
  )
}

function ContactStep() {
  const pending = useIsPending()
  return (
    <Form method="post" className="space-y-4">
      <p>
        First, confirm how we can reach you: we send a 6-digit code to your mobile number (India) or e-mail address.
        Nothing is filed until you enter it.
      </p>
      <Field
        label="Mobile number or e-mail address"
        inputProps={{ name: 'contact', required: true, maxLength: 254, autoComplete: 'email' }}
      />
      <StatusButton name="intent" value="send" status={pending ? 'pending' : 'idle'}>
        Send code
      </StatusButton>
    </Form>
  )
}

function CodeStep({ contact, sent, hasAnswer }: { contact: string; sent: string | null; hasAnswer: boolean }) {
  const pending = useIsPending()
  const notice =
    !sent || hasAnswer
      ? null
      : sent === '1'
        ? codeSentMessage(contact)
        : `A code was sent to ${contact} a moment ago. Enter it.`
  return (
    <>
      <OneTimeCodeForm
        sentTo={contact}
        notice={notice}
        codeProps={{ required: true, pattern: '[0-9]{6}' }}
        intent="verify"
        submitLabel="Confirm"
        status={pending ? 'pending' : 'idle'}
      />
      <Form method="post">
        <StatusButton name="intent" value="change" variant="secondary" disabled={pending} formNoValidate>
          Use another number or e-mail
        </StatusButton>
      </Form>
    </>
  )
}

function ComplaintStep({
  filingAs,
  signedIn,
  actionData,
}: {
  filingAs: string | null
  signedIn: boolean
  actionData: ActionData
}) {
  const pending = useIsPending()
  const result = actionData?.result
  const category = repliedField(result, 'category')
  // /complaints/new?category=PRIVACY (the link on "Your data") chooses the category beforehand.
  const [searchParams] = useSearchParams()
  const asked = searchParams.get('category')
  const preset = COMPLAINT_CATEGORIES.some((entry) => entry.value === asked) ? asked : null
  const text = repliedField(result, 'text')
  const attachment = repliedField(result, ATTACHMENT_FIELD_NAME)
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4">
      {filingAs ? (
        <p>
          Filing as {filingAs}
          {signedIn ? '' : ' (confirmed)'}.
        </p>
      ) : null}
      <SelectField
        label="What is it about?"
        errors={category.errors}
        placeholder="Choose"
        selectProps={{ name: 'category', required: true, defaultValue: category.defaultValue ?? preset ?? '' }}
        options={COMPLAINT_CATEGORIES}
      />
      <TextareaField
        label="Your complaint"
        hint={`At most ${COMPLAINT_TEXT_MAX_CHARS.toLocaleString('en-IN')} characters.`}
        errors={text.errors}
        textareaProps={{
          name: 'text',
          required: true,
          rows: 8,
          maxLength: COMPLAINT_TEXT_MAX_CHARS,
          defaultValue: text.defaultValue ?? '',
        }}
      />
      <Field
        label="Attachment (optional)"
        hint="A JPEG, PNG or WebP image, up to 10 MB."
        errors={attachment.errors}
        inputProps={{ name: ATTACHMENT_FIELD_NAME, type: 'file', accept: PAN_CARD_ACCEPT }}
      />
      <CheckboxField
        label="Someone pretended to be us (the research analyst) or our team."
        inputProps={{
          name: 'impersonation',
          defaultChecked: repliedField(result, 'impersonation').defaultValue === 'on',
        }}
      />
      <StatusButton name="intent" value="file" status={pending ? 'pending' : 'idle'}>
        File complaint
      </StatusButton>
    </Form>
  )
}

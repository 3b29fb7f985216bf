import { siteTitle } from '~/domain/business-details'
import { getZodConstraint } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { currentAgreement, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { LazyProfileDetailsForm } from '~/components/lazy-profile-details-form'
import { HtmlOnce } from '~/components/html-once'
import { LegalDocumentView } from '~/components/legal-document-view'
import { CheckboxField, Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { indiaIsoDate, latestAdultBirthDate } from '~/domain/dates'
import { UploadProgress, uploadWithProgress } from '~/components/upload-progress'
import { parseDetailsForm } from '~/domain/details-form'
import { familyPansReason } from '~/domain/family'
import { PAN_CARD_ACCEPT, PAN_CARD_FIELD_NAME, PAN_CARD_MAX_BYTES, PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import {
  acknowledgementField,
  acknowledgementMessage,
  acknowledgementsFromForm,
  CONSENT_DOCUMENTS,
  PAGE_ACKNOWLEDGED_KINDS,
} from '~/domain/consent'
import {
  adultBirthDateMissingMessage,
  hasAdultBirthDate,
  profileDetailsSchema,
  profileStep,
  PROFILE_STEP_PARAM,
  shownProfileStep,
  type ProfileStep,
} from '~/domain/profile'
import { safeRedirect } from '~/domain/redirect'
import { kycAdvice, kycAllowsPayment, KYC_RECHECK_BUTTON, KYC_STATUS_LABELS } from '~/domain/kyc'
import { KRA_CHECK_NOTICE, KRA_CHECK_NOTICE_HEADING, KRA_CHECK_POLICY_PATH } from '~/domain/kra-check-notice'
import { acceptAgreement } from '~/server/account/agreement.server'
import { requireUser } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { env } from '~/server/env.server'
import { familyMembersOf } from '~/server/account/family-members.server'
import { readForm } from '~/server/http/form-data.server'
import { forHtmlOnly } from '~/server/http/html-only.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import { discardReceivedFile } from '~/server/http/received-file.server'
import { PAN_CARD_LOCKED_MESSAGE, recheckKyc, savePanCard, saveProfileDetails } from '~/server/account/profile.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/details'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Your details') }]

const STEP_TITLES: Record<Exclude<ProfileStep, 'complete'>, string> = {
  details: 'Step 1 of 3: Your details',
  'pan-card': 'Step 2 of 3: PAN card',
  agreement: 'Step 3 of 3: Terms and Agreement',
}

const panCardLocked = (headers?: HeadersInit) =>
  redirectWithFlash('/account/corrections', { tone: 'error', message: PAN_CARD_LOCKED_MESSAGE }, { headers })

function afterWizard(request: Request) {
  return redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
}

/** This page at the first missing step (going back to step 1 ends with a save), keeping `redirectTo`. */
function wizardPath(request: Request, step?: 'details') {
  const url = new URL(request.url)
  if (step) url.searchParams.set(PROFILE_STEP_PARAM, step)
  else url.searchParams.delete(PROFILE_STEP_PARAM)
  return `${url.pathname}${url.search}`
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const firstMissing = profileStep(user)
  if (firstMissing === 'complete') throw afterWizard(request)
  const step = shownProfileStep(firstMissing, new URL(request.url).searchParams.get(PROFILE_STEP_PARAM))
  return {
    step,
    /** Step 1 shown again after it was saved: the customer went back to correct it. */
    back: step === 'details' && firstMissing !== 'details',
    backToDetails: wizardPath(request, 'details'),
    detailsForm: step === 'details' ? await detailsStepData(user) : null,
    agreement: step === 'agreement' ? agreementStepData(context) : null,
    // After step 1: the KRA's answer, and what to do when it does not allow paying.
    kyc: user.kycStatus
      ? {
          label: KYC_STATUS_LABELS[user.kycStatus],
          allowsPayment: kycAllowsPayment(user.kycStatus),
          advice: kycAdvice(user.kycStatus, businessDetails.supportEmail, 'wizard'),
          // From the loader: ~/domain/kyc holds zod schemas, which steps 2 and 3 must not load.
          recheckButton: KYC_RECHECK_BUTTON,
        }
      : null,
  }
}

/** What step 1's form shows: the details saved so far and the family rows, with the inputs' limits. */
async function detailsStepData(user: Awaited<ReturnType<typeof requireUser>>) {
  const today = new Date()
  const family = await familyMembersOf(user.id)
  return {
    latestBirthDate: latestAdultBirthDate(today),
    // The details' constraints (required, lengths) for the inputs; getZodConstraint cannot read the family rows' transform.
    constraint: getZodConstraint(profileDetailsSchema(today)),
    familyReason: familyPansReason(env.FEE_CAP_PAISE),
    saved: {
      name: user.name ?? '',
      email: user.email ?? '',
      dob: user.dateOfBirth ? indiaIsoDate(user.dateOfBirth) : '',
      pan: user.pan ?? '',
      // One empty row to start from; more with "Add a family member".
      family: family.length ? family : [{ pan: '', relation: '' }],
    },
  }
}

/**
 * The documents of the agreement step, each with the version its checkbox sends, and their texts as
 * loader data: in the route's JavaScript they would load on every step (docs/decisions/021-legal-text-as-loader-data.md).
 */
function agreementStepData(context: Route.LoaderArgs['context']) {
  const documents = currentConsentDocuments(businessDetails)
  const agreement = currentAgreement(businessDetails)
  return {
    // Once: in the HTML of the page, or in the loader data of a client navigation (decision 044).
    terms: forHtmlOnly(context, 'terms', agreement.terms),
    consentStatement: agreement.consentStatement,
    documents: PAGE_ACKNOWLEDGED_KINDS.map((kind) => ({ kind, version: documents[kind].version })),
  }
}

/**
 * A refused upload that left the body unread must close the connection (see pan-card-image.server.ts);
 * and the wizard shows personal data, so never cached (app/server/http/private-pages.server.ts).
 */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(actionHeaders.has('Connection') ? actionHeaders : loaderHeaders)
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const nextStep = redirect(wizardPath(request))

  // The PAN card and the agreement wait for an adult date of birth, as in the API (a crafted post skips step 1).
  const underage = hasAdultBirthDate(user.dateOfBirth, new Date())
    ? null
    : adultBirthDateMissingMessage(user.dateOfBirth, 'at step 1')
  if (request.headers.get('Content-Type')?.startsWith('multipart/form-data')) {
    // A complete profile's card changes only through a correction request: said there, body unread.
    if (profileStep(user) === 'complete') return panCardLocked({ Connection: 'close' })
    if (underage) return data({ uploadError: underage }, { status: 409, headers: { Connection: 'close' } })
    const upload = await readPanCardUpload(request)
    if (!upload.ok) return data({ uploadError: upload.message }, { status: upload.status, headers: upload.headers })
    try {
      const saved = await savePanCard(user, upload)
      if (!saved.ok) return panCardLocked()
      return nextStep
    } finally {
      // Moved into storage by now, or not to be kept (decision 058).
      await discardReceivedFile(upload.file)
    }
  }

  const formData = await readForm(request)
  if (formData.get('intent') === 'accept-agreement') {
    if (underage) return data({ agreementError: underage }, 409)
    const accepted = await acceptAgreement(user.id, {
      shown: acknowledgementsFromForm(formData),
      required: PAGE_ACKNOWLEDGED_KINDS,
      origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'PAGE' },
    })
    if (!accepted.signed) {
      const status = accepted.check.reason === 'stale' ? 409 : 400
      return data({ agreementError: acknowledgementMessage(accepted.check) }, status)
    }
    return profileStep({ ...user, agreementAcceptedAt: new Date() }) === 'complete' ? afterWizard(request) : nextStep
  }

  if (formData.get('intent') === 'recheck') {
    const outcome = await recheckKyc(user.id)
    if (!outcome.ok) return data({ recheckError: outcome.message }, outcome.status)
    return redirectWithFlash(wizardPath(request), {
      tone: 'success',
      message: `The KRA answered: ${KYC_STATUS_LABELS[outcome.kyc.status]}.`,
    })
  }

  const submission = parseDetailsForm(formData)
  // No status: "Add a family member" or "Remove" without JavaScript; the page comes back with the rows changed.
  if (submission.status !== 'success') return data({ result: submission.reply() }, submission.status ? 400 : 200)
  const saved = await saveProfileDetails(user.id, submission.value.details, submission.value.family)
  if (!saved.ok) {
    if (saved.field === null) return data({ result: submission.reply({ formErrors: [saved.message] }) }, saved.status)
    return data({ result: submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }) }, 409)
  }
  return nextStep
}

/** The refused upload's message on the page, which the script's upload reads from the server's answer. */
const PAN_CARD_REFUSAL_ID = 'pan-card-refusal'

/**
 * With JavaScript the PAN card goes up as the same form post, through XMLHttpRequest so that the
 * page can show its progress; a file over the limit is refused before it is sent (on a slow
 * network, 10 MB is minutes). The other steps go to the server's action as they are.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  if (!request.headers.get('Content-Type')?.startsWith('multipart/form-data')) return serverAction()
  const form = await request.formData()
  const file = form.get(PAN_CARD_FIELD_NAME)
  if (file instanceof File && file.size > PAN_CARD_MAX_BYTES) return { uploadError: PAN_CARD_MESSAGES.tooLarge }
  const answer = await uploadWithProgress(request.url, form, PAN_CARD_REFUSAL_ID)
  if (answer.ok) return redirect(answer.landedOn)
  return { uploadError: answer.message ?? PAN_CARD_MESSAGES.interrupted }
}

export default function Details({ loaderData, actionData }: Route.ComponentProps) {
  const { step } = loaderData
  return (
    <section className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold">Enter Details</h1>
      <h2 className="mt-2 text-lg font-medium">{STEP_TITLES[step]}</h2>
      {step !== 'details' && loaderData.kyc ? (
        <KycStatusNote
          kyc={loaderData.kyc}
          backToDetails={loaderData.backToDetails}
          recheckError={actionData && 'recheckError' in actionData ? actionData.recheckError : undefined}
        />
      ) : null}
      {loaderData.back && loaderData.kyc ? (
        <div className="mt-4">
          <FormMessage tone="info">
            The KRA answered “{loaderData.kyc.label}” for the details you saved. Correct your name, PAN or date of birth
            below and save: we ask the KRA again.
          </FormMessage>
        </div>
      ) : null}
      {loaderData.detailsForm ? <KraCheckNotice /> : null}
      <div className="mt-4">
        {loaderData.detailsForm ? (
          <LazyProfileDetailsForm
            {...loaderData.detailsForm}
            lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          />
        ) : step === 'pan-card' ? (
          <PanCardStep error={actionData && 'uploadError' in actionData ? actionData.uploadError : undefined} />
        ) : loaderData.agreement ? (
          <AgreementStep
            agreement={loaderData.agreement}
            error={actionData && 'agreementError' in actionData ? actionData.agreementError : undefined}
          />
        ) : null}
      </div>
    </section>
  )
}

/** Step 1 sends the PAN and date of birth to the KRA: said before the fields, with the policy's words on why. */
function KraCheckNotice() {
  return (
    <aside
      aria-labelledby="kra-check-notice"
      className="mt-4 rounded-md border border-gray-300 p-3 text-sm dark:border-gray-600"
    >
      <h3 id="kra-check-notice" className="font-medium">
        {KRA_CHECK_NOTICE_HEADING}
      </h3>
      <p className="mt-1">
        {KRA_CHECK_NOTICE}{' '}
        <Link to={KRA_CHECK_POLICY_PATH} className="text-blue-700 underline dark:text-blue-300">
          Privacy Policy: consent and legal duties
        </Link>
      </p>
    </aside>
  )
}

/**
 * The KRA's answer at steps 2 and 3, with the ways out it names: back to step 1 to correct the
 * details, and, when it does not allow paying, asking the KRA again.
 */
function KycStatusNote({
  kyc,
  backToDetails,
  recheckError,
}: {
  kyc: NonNullable<Route.ComponentProps['loaderData']['kyc']>
  backToDetails: string
  recheckError: string | undefined
}) {
  const checking = useIsPending({ fields: { intent: 'recheck' } })
  return (
    <div className="mt-4 space-y-3">
      <div data-testid="kyc-status">
        <FormMessage tone={kyc.allowsPayment ? 'success' : 'info'}>
          KYC at the KRA: {kyc.label}. {kyc.advice}
        </FormMessage>
      </div>
      {recheckError ? <FormMessage tone="error">{recheckError}</FormMessage> : null}
      <div className="flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
        <Link to={backToDetails} className="text-blue-700 underline dark:text-blue-300">
          Back to step 1: correct your name, PAN or date of birth
        </Link>
        {kyc.allowsPayment ? null : (
          <Form method="post">
            <StatusButton
              name="intent"
              value="recheck"
              status={checking ? 'pending' : 'idle'}
              className="inline-flex w-full items-center justify-center gap-2 rounded-md border border-gray-300 px-3 py-2 text-sm hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800"
            >
              {kyc.recheckButton}
            </StatusButton>
          </Form>
        )}
      </div>
    </div>
  )
}

function PanCardStep({ error }: { error: string | undefined }) {
  const pending = useIsPending()
  return (
    // The file input comes last: an oversized upload is refused after its first 64 KiB.
    <Form method="post" encType="multipart/form-data" className="space-y-4">
      {error ? (
        <div id={PAN_CARD_REFUSAL_ID}>
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      ) : null}
      <Field
        label="Upload Pan Card under 10MB"
        hint="A clear photo or scan: JPEG, PNG or WebP. Only you and our compliance team can see it."
        invalid={Boolean(error)}
        controlClassName="mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-2 dark:file:bg-gray-800"
        inputProps={{ id: 'pancard', name: PAN_CARD_FIELD_NAME, type: 'file', accept: PAN_CARD_ACCEPT, required: true }}
      />
      <UploadProgress label="Uploading your PAN card" uploading={pending} />
      <StatusButton status={pending ? 'pending' : 'idle'}>Upload and continue</StatusButton>
    </Form>
  )
}

function AgreementStep({
  agreement,
  error,
}: {
  agreement: NonNullable<Route.ComponentProps['loaderData']['agreement']>
  error: string | undefined
}) {
  const pending = useIsPending()
  return (
    <Form method="post" className="space-y-4">
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <p className="text-sm">
        Before your first subscription, please read these four documents and tick a box for each: our Terms and
        Conditions, the Most Important Terms and Conditions (MITC), the consent statement and the Investor Charter; and,
        separately, your consent to our processing your personal data. We keep a record of each (the version, when, and
        from which address) and e-mail you a copy of all of them.
      </p>
      {/* relative: the links' screen-reader-only texts are absolutely placed; without it they escape this scroll box and lengthen the page. */}
      <div
        className="relative max-h-[60vh] overflow-y-auto rounded-md border border-gray-200 p-4 text-sm dark:border-gray-700"
        tabIndex={0}
        role="region"
        aria-label="Terms and Conditions, MITC and consent"
      >
        <HtmlOnce name="terms" value={agreement.terms}>
          {(terms) => <LegalDocumentView document={terms} embedded />}
        </HtmlOnce>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-base font-semibold">Your acknowledgements</legend>
        {agreement.documents.map(({ kind, version }) => {
          const id = acknowledgementField(kind)
          const info = CONSENT_DOCUMENTS[kind]
          return (
            <div key={kind} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
              {kind === 'CONSENT_STATEMENT' ? (
                <blockquote id={`${id}-text`} className="mb-2 space-y-2 border-l-4 border-gray-300 pl-3 text-sm">
                  {agreement.consentStatement.map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
                  ))}
                </blockquote>
              ) : null}
              <CheckboxField
                label={info.acknowledgement}
                alsoDescribedBy={kind === 'CONSENT_STATEMENT' ? `${id}-text ${id}-link` : `${id}-link`}
                inputProps={{ id, name: id, value: version, required: true }}
              />
              <p id={`${id}-link`} className="mt-1 pl-8 text-sm">
                <a
                  href={info.path}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-blue-700 underline dark:text-blue-300"
                >
                  Read the {info.title}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </p>
            </div>
          )
        })}
      </fieldset>
      <StatusButton name="intent" value="accept-agreement" status={pending ? 'pending' : 'idle'}>
        Accept Terms and Continue
      </StatusButton>
    </Form>
  )
}

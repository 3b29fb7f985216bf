import { siteTitle } from '~/domain/business-details'
import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import {
  Field,
  FormMessage,
  RadioGroupField,
  repliedField,
  SelectField,
  StatusButton,
  TextareaField,
} from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import {
  BULK_NOTICE_AUDIENCE_LABELS,
  BULK_NOTICE_AUDIENCES,
  BULK_NOTICE_BODY_MAX,
  BULK_NOTICE_CHOSEN_MAX,
  BULK_NOTICE_SUBJECT_MAX,
  BulkNoticeFormSchema,
  customersCount,
} from '~/domain/bulk-notice'
import { isUuid } from '~/domain/uuid'
import { noticeServiceChoices, reviewBulkNotice, sendBulkNotice } from '~/server/admin/bulk-notices.server'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/notices'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Notices | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return { services: await noticeServiceChoices() }
}

/**
 * Two steps, without JavaScript too: "Review" counts who it reaches; "Send" (the same words, with
 * the review's key) records and queues it, once however often it is pressed.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: BulkNoticeFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), review: null }, 400)
  const noticeKey = String(formData.get('noticeKey') ?? '')
  if (formData.get('intent') !== 'send' || !isUuid(noticeKey)) {
    return {
      result: submission.reply(),
      review: { ...submission.value, noticeKey: randomUUID(), ...(await reviewBulkNotice(submission.value)) },
    }
  }
  const sent = await sendBulkNotice({ notice: submission.value, noticeKey, adminId: admin.id })
  return redirectWithFlash('/admin/notices', {
    tone: sent.alreadySent ? 'info' : 'success',
    message: sent.alreadySent
      ? 'This notice was already sent; it was not sent again.'
      : `The notice "${submission.value.subject}" is queued to ${customersCount(sent.queued)} by e-mail.${
          sent.withoutEmail ? ` ${customersCount(sent.withoutEmail)} with no e-mail address were not reached.` : ''
        }`,
  })
}

export default function Notices({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsPending()
  const review = actionData?.review
  const field = (name: string) => repliedField(actionData?.result, name)
  return (
    <section aria-labelledby="notices-heading" className="max-w-2xl">
      <h1 id="notices-heading" className="text-2xl font-semibold">
        Notices to customers
      </h1>
      <p className="mt-2">
        An e-mail to a chosen set of customers at once: a data breach notice, a change of the service. It is counted
        before it is sent, recorded in the audit log with its words, and kept in each customer&apos;s messages.
      </p>
      {review ? (
        <Form method="post" className="mt-6 space-y-3">
          <div role="status">
            <FormMessage tone="info">
              It reaches {customersCount(review.reached)} by e-mail.
              {review.withoutEmail
                ? ` ${customersCount(review.withoutEmail)} with no e-mail address will not be reached.`
                : ''}
              {review.unknownNumbers ? ` ${review.unknownNumbers} of the numbers belong to no customer.` : ''}
            </FormMessage>
          </div>
          <p>To: {BULK_NOTICE_AUDIENCE_LABELS[review.audience]}</p>
          <p className="font-medium break-words">Subject: {review.subject}</p>
          <p className="break-words whitespace-pre-line">{review.body}</p>
          {(['audience', 'serviceId', 'phones', 'subject', 'body', 'noticeKey'] as const).map((name) => (
            <input key={name} type="hidden" name={name} value={review[name] ?? ''} />
          ))}
          <StatusButton name="intent" value="send" status={pending ? 'pending' : 'idle'} disabled={!review.reached}>
            Send to {customersCount(review.reached)}
          </StatusButton>
        </Form>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <RadioGroupField
            legend="Who receives it"
            name="audience"
            options={BULK_NOTICE_AUDIENCES.map((audience) => ({
              value: audience,
              label: BULK_NOTICE_AUDIENCE_LABELS[audience],
            }))}
            defaultValue={field('audience').defaultValue ?? 'OPEN'}
            errors={field('audience').errors}
          />
          <SelectField
            label="Service (for its subscribers)"
            errors={field('serviceId').errors}
            placeholder="Choose a service"
            options={loaderData.services}
            selectProps={{ name: 'serviceId', defaultValue: field('serviceId').defaultValue }}
          />
          <TextareaField
            label="Mobile numbers (for chosen customers)"
            hint={`One per line, at most ${BULK_NOTICE_CHOSEN_MAX.toLocaleString('en-IN')}.`}
            errors={field('phones').errors}
            textareaProps={{ name: 'phones', rows: 3, defaultValue: field('phones').defaultValue }}
          />
          <Field
            label="Subject"
            errors={field('subject').errors}
            inputProps={{
              name: 'subject',
              required: true,
              maxLength: BULK_NOTICE_SUBJECT_MAX,
              defaultValue: field('subject').defaultValue,
            }}
          />
          <TextareaField
            label="Notice"
            hint={`Plain text; a blank line starts a new paragraph. At most ${BULK_NOTICE_BODY_MAX.toLocaleString('en-IN')} characters.`}
            errors={field('body').errors}
            textareaProps={{
              name: 'body',
              rows: 8,
              required: true,
              maxLength: BULK_NOTICE_BODY_MAX,
              defaultValue: field('body').defaultValue,
            }}
          />
          <StatusButton name="intent" value="review" status={pending ? 'pending' : 'idle'}>
            Review
          </StatusButton>
        </Form>
      )}
    </section>
  )
}

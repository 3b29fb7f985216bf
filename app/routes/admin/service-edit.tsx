import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { Field, FormMessage, SelectField, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { RISK_LEVEL_LABELS, RISK_LEVELS } from '~/domain/risk-levels'
import { priceForForm, SERVICE_LIMITS, serviceFromForm, ServiceFormSchema } from '~/domain/service-form'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { createService, serviceForAdmin, updateService } from '~/server/catalog/service-editing.server'
import { readForm } from '~/server/http/form-data.server'
import { researchDeliverySentence } from '~/domain/service-delivery'
import type { Route } from './+types/service-edit'

// One module for /admin/services/new (no serviceId) and /admin/services/:serviceId.

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => [
  { title: siteTitle(matches, `${loaderData?.service ? `Edit ${loaderData.service.name}` : 'New service'} | Admin`) },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  if (!params.serviceId) return { service: null }
  const service = await serviceForAdmin(params.serviceId)
  if (!service) throw data('Not Found', { status: 404 })
  return { service }
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: ServiceFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const service = serviceFromForm(submission.value)
  const change = params.serviceId
    ? await updateService(admin.id, params.serviceId, service)
    : await createService(admin.id, service)
  if (!change.ok) {
    const errors = change.field
      ? { fieldErrors: { [change.field]: [change.message] } }
      : { formErrors: [change.message] }
    return data({ result: submission.reply(errors) }, change.status)
  }
  return redirect(`/admin/services?saved=${params.serviceId ? 'updated' : 'created'}`)
}

export default function ServiceEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { service } = loaderData
  const pending = useIsPending()
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: {
      name: service?.name ?? '',
      description: service?.description.join('\n') ?? '',
      price: service ? priceForForm(service.pricePaise) : '',
      durationDays: service ? String(service.durationDays) : '',
      riskLevel: service?.riskLevel ?? '',
      delivery: service?.delivery ?? '',
    },
    constraint: getZodConstraint(ServiceFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ServiceFormSchema }),
  })
  return (
    <section className="max-w-xl">
      <h1 className="text-2xl font-semibold">{service ? `Edit ${service.name}` : 'New service'}</h1>
      {form.errors ? (
        <div className="mt-4">
          <FormMessage tone="error">{form.errors.join(' ')}</FormMessage>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <Field
          label="Name"
          errors={fields.name.errors}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: SERVICE_LIMITS.nameMax }}
        />
        <TextareaField
          label="Description"
          hint={`One bullet per line, at most ${SERVICE_LIMITS.descriptionLinesMax} lines and ${SERVICE_LIMITS.descriptionMax.toLocaleString('en-IN')} characters; a long line wraps.`}
          errors={fields.description.errors}
          textareaProps={{ ...getTextareaProps(fields.description), rows: 5 }}
        />
        <Field
          label="Price in rupees"
          hint="For example 2999 or 2,999.50; at most Rs. 1,51,000."
          errors={fields.price.errors}
          inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal' }}
        />
        <Field
          label="Duration in days"
          hint={`1 to ${SERVICE_LIMITS.durationDaysMax}.`}
          errors={fields.durationDays.errors}
          inputProps={{ ...getInputProps(fields.durationDays, { type: 'text' }), inputMode: 'numeric' }}
        />
        <SelectField
          label="Risk level"
          hint="Shown with the service on /services, /pay and in the app."
          errors={fields.riskLevel.errors}
          selectProps={getSelectProps(fields.riskLevel)}
          placeholder="Choose the risk level"
          options={RISK_LEVELS.map((level) => ({ value: level, label: RISK_LEVEL_LABELS[level] }))}
        />
        <TextareaField
          label="How and how often the research is delivered"
          hint={`How often, for example "Two to four ideas a week"; the page adds "${researchDeliverySentence()}" from the channels the store runs. At most ${SERVICE_LIMITS.deliveryMax} characters.`}
          errors={fields.delivery.errors}
          textareaProps={{ ...getTextareaProps(fields.delivery), rows: 2, maxLength: SERVICE_LIMITS.deliveryMax }}
        />
        <div className="flex flex-wrap items-center gap-4">
          <StatusButton status={pending ? 'pending' : 'idle'}>
            {service ? 'Save service' : 'Create service'}
          </StatusButton>
          <Link to="/admin/services" className="underline">
            Back to services
          </Link>
        </div>
      </Form>
    </section>
  )
}

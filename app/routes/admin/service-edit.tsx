import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { ErrorList, Field, FormMessage, primaryButtonClass } from '~/components/forms'
import { parseServiceForm, priceForForm, SERVICE_LIMITS, type ServiceFormErrors } from '~/domain/service-form'
import { requireAdmin } from '~/server/admin.server'
import { createService, serviceForAdmin, updateService } from '~/server/admin-services.server'
import { readForm } from '~/server/forms.server'
import type { Route } from './+types/service-edit'

// One module for /admin/services/new (no serviceId) and /admin/services/:serviceId.

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.service ? `Edit ${loaderData.service.name}` : 'New service'} | Admin | Research Store` },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  if (!params.serviceId) return { service: null }
  const service = await serviceForAdmin(params.serviceId)
  if (!service) throw data('Not Found', { status: 404 })
  return { service }
}

type FormValues = { name: string; description: string; price: string; durationDays: string }

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const form = await readForm(request)
  const values: FormValues = {
    name: String(form.get('name') ?? ''),
    description: String(form.get('description') ?? ''),
    price: String(form.get('price') ?? ''),
    durationDays: String(form.get('durationDays') ?? ''),
  }
  const parsed = parseServiceForm(values)
  if (!parsed.ok) return data({ values, errors: parsed.errors, message: null }, 400)
  const change = params.serviceId
    ? await updateService(admin.id, params.serviceId, parsed.service)
    : await createService(admin.id, parsed.service)
  if (!change.ok) {
    const errors: ServiceFormErrors = change.field ? { [change.field]: [change.message] } : {}
    return data({ values, errors, message: change.field ? null : change.message }, change.status)
  }
  return redirect(`/admin/services?saved=${params.serviceId ? 'updated' : 'created'}`)
}

export default function ServiceEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { service } = loaderData
  const busy = useNavigation().state !== 'idle'
  const errors = actionData?.errors ?? {}
  const values: FormValues = actionData?.values ?? {
    name: service?.name ?? '',
    description: service?.description.join('\n') ?? '',
    price: service ? priceForForm(service.pricePaise) : '',
    durationDays: service ? String(service.durationDays) : '',
  }
  const descriptionErrorId = errors.description?.length ? 'description-errors' : undefined
  return (
    <section className="max-w-xl">
      <h1 className="text-2xl font-semibold">{service ? `Edit ${service.name}` : 'New service'}</h1>
      {actionData?.message ? (
        <div className="mt-4">
          <FormMessage tone="error">{actionData.message}</FormMessage>
        </div>
      ) : null}
      <Form method="post" noValidate className="mt-4 space-y-4">
        <Field
          label="Name"
          errors={errors.name}
          inputProps={{ name: 'name', defaultValue: values.name, required: true, maxLength: SERVICE_LIMITS.nameMax }}
        />
        <div>
          <label htmlFor="description" className="block text-sm font-medium">
            Description
          </label>
          <p id="description-hint" className="text-xs text-gray-600 dark:text-gray-400">
            One bullet per line, at most {SERVICE_LIMITS.descriptionLinesMax} lines.
          </p>
          <textarea
            id="description"
            name="description"
            rows={5}
            defaultValue={values.description}
            aria-invalid={descriptionErrorId ? true : undefined}
            aria-describedby={['description-hint', descriptionErrorId].filter(Boolean).join(' ')}
            className="mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base dark:border-gray-600 dark:bg-gray-900"
          />
          <ErrorList id={descriptionErrorId} errors={errors.description} />
        </div>
        <Field
          label="Price in rupees"
          hint="For example 2999 or 2,999.50; at most Rs. 1,51,000."
          errors={errors.price}
          inputProps={{ name: 'price', defaultValue: values.price, inputMode: 'decimal', required: true }}
        />
        <Field
          label="Duration in days"
          hint={`1 to ${SERVICE_LIMITS.durationDaysMax}.`}
          errors={errors.durationDays}
          inputProps={{ name: 'durationDays', defaultValue: values.durationDays, inputMode: 'numeric', required: true }}
        />
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {service ? 'Save service' : 'Create service'}
          </button>
          <Link to="/admin/services" className="underline">
            Back to services
          </Link>
        </div>
      </Form>
    </section>
  )
}

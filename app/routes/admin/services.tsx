import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { FormMessage, primaryButtonClass, secondaryButtonClass, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { ServiceOnSaleSchema } from '~/domain/admin'
import { formatPriceLine } from '~/domain/money'
import { ServiceRiskAndDelivery } from '~/components/service-description'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { servicesForAdmin, setServiceOnSale } from '~/server/catalog/service-editing.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/services'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Services | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const saved = new URL(request.url).searchParams.get('saved')
  return { services: await servicesForAdmin(), saved: saved === 'created' || saved === 'updated' ? saved : null }
}

/** Take a service off sale or put it back on sale. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: ServiceOnSaleSchema })
  if (submission.status !== 'success') {
    const serviceId = String(formData.get('serviceId') ?? '')
    return data({ serviceId, ok: false, message: 'Something was missing from the form. Please try again.' }, 400)
  }
  const { intent, serviceId } = submission.value
  const change = await setServiceOnSale(admin.id, serviceId, intent === 'reactivate')
  if (!change.ok) return data({ serviceId, ok: false, message: change.message }, change.status)
  return { serviceId, ok: true, message: intent === 'reactivate' ? 'Back on sale.' : 'Taken off sale.' }
}

export default function AdminServices({ loaderData, actionData }: Route.ComponentProps) {
  const { services, saved } = loaderData
  const pending = useIsPending()
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Services</h1>
        <Link to="/admin/services/new" className={primaryButtonClass}>
          New service
        </Link>
      </div>
      {saved ? (
        <div className="mt-4">
          <FormMessage tone="success">
            {saved === 'created' ? 'Service created; it is on sale now.' : 'Service saved.'}
          </FormMessage>
        </div>
      ) : null}
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        Changes show on /services at once. Payments already made keep the price they were paid at; a service taken off
        sale leaves carts, while subscriptions already bought run to their end.
      </p>
      <ul className="mt-4 space-y-3">
        {services.map((service) => {
          const headingId = `service-${service.id}`
          const result = actionData?.serviceId === service.id ? actionData : undefined
          return (
            <li key={service.id}>
              <article
                aria-labelledby={headingId}
                className="rounded-lg border border-gray-200 p-4 dark:border-gray-700"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={headingId} className="text-lg font-semibold">
                    {service.name}
                  </h2>
                  <span
                    className={
                      service.active
                        ? 'text-sm font-medium text-green-800 dark:text-green-300'
                        : 'text-sm font-medium text-gray-700 dark:text-gray-300'
                    }
                  >
                    {service.active ? 'On sale' : 'Off sale'}
                  </span>
                </div>
                <p className="mt-1">{formatPriceLine(service.pricePaise, service.durationDays)}</p>
                {service.description.length > 0 ? (
                  <ul className="mt-2 list-disc pl-6 text-sm text-gray-700 dark:text-gray-300">
                    {service.description.map((line, index) => (
                      <li key={index}>{line}</li>
                    ))}
                  </ul>
                ) : null}
                <ServiceRiskAndDelivery riskLevel={service.riskLevel} delivery={service.delivery} className="mt-2" />
                {result ? (
                  <div className="mt-3">
                    <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage>
                  </div>
                ) : null}
                <div className="mt-3 flex flex-wrap gap-3">
                  <Link
                    to={`/admin/services/${service.id}`}
                    className={secondaryButtonClass}
                    aria-label={`Edit ${service.name}`}
                  >
                    Edit
                  </Link>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="serviceId" value={service.id} />
                    <StatusButton
                      name="intent"
                      value={service.active ? 'deactivate' : 'reactivate'}
                      variant="secondary"
                      disabled={pending}
                      status={result?.ok ? 'success' : 'idle'}
                      aria-label={`${service.active ? 'Take off sale' : 'Put back on sale'}: ${service.name}`}
                    >
                      {service.active ? 'Take off sale' : 'Put back on sale'}
                    </StatusButton>
                  </Form>
                </div>
              </article>
            </li>
          )
        })}
      </ul>
    </>
  )
}

import { formatPriceLine } from '~/domain/money'
import { getActiveServices } from '~/server/services.server'
import type { Route } from './+types/services'

export const meta: Route.MetaFunction = () => [
  { title: 'Services | Research Store' },
  { name: 'description', content: 'Research subscriptions from a SEBI-registered research analyst.' },
]

export async function loader() {
  return { services: await getActiveServices() }
}

export default function Services({ loaderData }: Route.ComponentProps) {
  const { services } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Services</h1>
      {services.length === 0 ? (
        <p className="mt-4">No services are available right now.</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li key={service.id}>
              <ServiceCard service={service} />
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

function ServiceCard({ service }: { service: Route.ComponentProps['loaderData']['services'][number] }) {
  const checkboxId = `service-${service.id}`
  return (
    <article className="h-full rounded-lg border border-gray-200 p-4 shadow-sm dark:border-gray-700">
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          name="serviceId"
          value={service.id}
          className="mt-1 h-5 w-5 accent-green-700"
        />
        <h2 className="text-lg font-semibold">
          <label htmlFor={checkboxId}>{service.name}</label>
        </h2>
      </div>
      <ul className="mt-3 list-disc space-y-1 pl-6 text-sm text-gray-700 dark:text-gray-300">
        {service.description.length > 0 ? (
          service.description.map((line, index) => <li key={index}>{line}</li>)
        ) : (
          <li>Service description goes here.</li>
        )}
      </ul>
      <p className="mt-3 font-medium">{formatPriceLine(service.pricePaise, service.durationDays)}</p>
    </article>
  )
}

import { useLoaderData } from 'react-router'

export function meta() {
  return [{ title: 'Services' }]
}

export function loader() {
  return {
    services: [
      { id: 1, name: 'Plumbing', price: 499 },
      { id: 2, name: 'Electrical repair', price: 399 },
      { id: 3, name: 'House cleaning', price: 899 },
      { id: 4, name: 'AC servicing', price: 699 },
      { id: 5, name: 'Pest control', price: 1199 },
      { id: 6, name: 'Carpentry', price: 549 },
    ],
  }
}

export default function Home() {
  const { services } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-2xl p-4">
      <h1 className="mb-4 text-2xl font-bold">Services</h1>
      <ul className="space-y-2">
        {services.map((service) => (
          <li key={service.id} className="flex justify-between rounded border p-3">
            <span>{service.name}</span>
            <span className="text-gray-600">₹{service.price}</span>
          </li>
        ))}
      </ul>
    </main>
  )
}

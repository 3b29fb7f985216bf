import { Link } from 'react-router'
import type { Route } from './+types/home'

export const meta: Route.MetaFunction = () => [{ title: 'Research Store' }]

export default function Home() {
  return (
    <>
      <h1 className="text-2xl font-semibold">Research Store</h1>
      <p className="mt-2">Time-limited research subscriptions from a SEBI-registered research analyst.</p>
      <p className="mt-4">
        <Link to="/services" className="font-medium text-green-700 underline dark:text-green-400">
          Browse the services
        </Link>
      </p>
    </>
  )
}

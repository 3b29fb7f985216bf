import { Link } from 'react-router'
import { requireCompleteProfile } from '~/server/auth.server'
import type { Route } from './+types/home'

export const meta: Route.MetaFunction = () => [{ title: 'Research Store' }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  return { name: user.name }
}

const linkClass = 'font-medium text-green-700 underline dark:text-green-400'

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-2xl font-semibold capitalize">Hello, {loaderData.name}</h1>
      <p className="mt-2">Time-limited research subscriptions from a SEBI-registered research analyst.</p>
      <ul className="mt-4 list-disc space-y-2 pl-6">
        <li>
          <Link to="/services" className={linkClass}>
            Browse the services
          </Link>
        </li>
        <li>
          <Link to="/subscriptions" className={linkClass}>
            Your subscriptions
          </Link>
        </li>
      </ul>
    </>
  )
}

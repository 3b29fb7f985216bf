import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { SiteFooter } from './components/site-footer'
import { SiteHeader } from './components/site-header'
import type { RegistrationDetails } from './domain/business-details'
import { useNonce } from './nonce'
import { businessDetails } from './server/business.server'
import { env } from './server/env.server'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
]

export function loader() {
  const registration: RegistrationDetails = { name: businessDetails.name, sebiRegistrationNumber: businessDetails.sebiRegistrationNumber }
  // Serialised into every page: only what the header and footer show.
  return { demoMode: env.DEMO_MODE, user: null, registration }
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Absent when no route matched (404) or the root loader itself failed.
  const rootData = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-white text-gray-900 antialiased dark:bg-gray-950 dark:text-gray-100">
        {rootData?.demoMode ? <DemoBanner /> : null}
        <SiteHeader user={rootData?.user ?? null} />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">{children}</main>
        <SiteFooter registration={rootData?.registration ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

function DemoBanner() {
  return (
    <p className="bg-amber-100 px-4 py-1 text-center text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-50">
      Demo mode: sample data, codes and e-mails go to the dev outbox, payments use the sandbox gateway.
    </p>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { pathname } = useLocation()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section>
        <title>404 Not Found</title>
        <h1 className="text-2xl font-semibold">404 Not Found</h1>
        <p className="mt-2">No route matches URL &quot;{pathname}&quot;</p>
      </section>
    )
  }
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : null
  return (
    <section>
      <title>Unexpected Application Error!</title>
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p className="mt-2">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Something went wrong on our side. Please try again.'}
      </p>
      {detail ? <pre className="mt-4 overflow-x-auto text-xs">{detail}</pre> : null}
    </section>
  )
}

import { useEffect } from 'react'
import { data, Links, Meta, Outlet, ScrollRestoration, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { SiteFooter } from './components/site-footer'
import { ErrorPage } from './components/error-page'
import { FlashMessage } from './components/flash-message'
import { NavigationProgress, useSlowNavigation } from './components/navigation-progress'
import { SiteHeader } from './components/site-header'
import { ScriptsAfterFirstPaint } from './components/scripts-after-first-paint'
import type { RegistrationDetails } from './domain/business-details'
import { useNonce } from './nonce'
import { businessDetails } from './server/business.server'
import { env } from './server/env.server'
import { readFlash } from './server/http/flash.server'
import { getSessionUser } from './server/session.server'
import { termsForCustomer } from './server/account/terms-versions.server'
import { changedDocumentsFor } from './server/account/document-versions.server'
import { formatIndiaDateTime } from './domain/dates'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { flash, clearFlash }] = await Promise.all([getSessionUser(request), readFlash(request)])
  const [terms, changedDocuments] = user
    ? await Promise.all([termsForCustomer(user), changedDocumentsFor(user)])
    : [null, []]
  const termsNotice = terms?.mustAccept ?? terms?.announced ?? null
  const registration: RegistrationDetails = {
    name: businessDetails.name,
    brandName: businessDetails.brandName,
    sebiRegistrationNumber: businessDetails.sebiRegistrationNumber,
    bseEnlistmentNumber: businessDetails.bseEnlistmentNumber,
    grievanceOfficer: businessDetails.grievanceOfficer,
  }
  // Serialised into every page: only what the header, the footer and the flash message show.
  return data(
    {
      demoMode: env.DEMO_MODE,
      user: user ? { name: user.name, isAdmin: user.role === 'ADMIN' } : null,
      registration,
      flash,
      // The site-wide banner of a new version of the terms the customer has not accepted (docs/regulatory.md, A new
      // version of the terms).
      termsBanner: termsNotice
        ? {
            version: termsNotice.version,
            effectiveFrom: formatIndiaDateTime(termsNotice.effectiveFrom),
            inForce: terms?.mustAccept !== null,
          }
        : null,
      // The banner of a new Privacy Policy, Investor Charter or MITC the customer has not acknowledged yet
      // (docs/decisions/053-document-versions.md).
      documentsBanner: changedDocuments.map(({ title, version, publishedOn }) => ({ title, version, publishedOn })),
    },
    clearFlash ? { headers: { 'Set-Cookie': clearFlash } } : undefined,
  )
}

/**
 * Every navigation reads the root loader again, so a flash message shows on the page it was meant
 * for and is gone on the next one (the session lookup is shared with the page's own loader).
 */
export function shouldRevalidate() {
  return true
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Absent when no route matched (404) or the root loader itself failed.
  const rootData = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const loading = useSlowNavigation()
  // `<html data-hydrated>` once React has hydrated the page: the end-to-end tests wait for it before
  // pressing what only the page's script handles (tests/e2e/hydration.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-white text-gray-900 antialiased dark:bg-gray-950 dark:text-gray-100">
        <NavigationProgress loading={loading} />
        {rootData?.demoMode ? <DemoBanner /> : null}
        <SiteHeader user={rootData?.user ?? null} registration={rootData?.registration ?? null} />
        {rootData?.termsBanner ? <TermsBanner banner={rootData.termsBanner} /> : null}
        {rootData?.documentsBanner.length ? <DocumentsBanner documents={rootData.documentsBanner} /> : null}
        <main aria-busy={loading || undefined} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
          {rootData?.flash ? <FlashMessage flash={rootData.flash} /> : null}
          {children}
        </main>
        <SiteFooter registration={rootData?.registration ?? null} />
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterFirstPaint nonce={nonce} />
      </body>
    </html>
  )
}

/** Rendered by the server with the page, so it never moves the page after load and needs no script. */
function TermsBanner({ banner }: { banner: { version: string; effectiveFrom: string; inForce: boolean } }) {
  return (
    <aside
      aria-label="New Terms and Conditions"
      className="border-b border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-50"
    >
      <p className="mx-auto max-w-6xl">
        {banner.inForce
          ? `Our Terms and Conditions changed: version ${banner.version} is in force since ${banner.effectiveFrom}. Accept it before your next payment. `
          : `Our Terms and Conditions are changing: version ${banner.version} takes effect on ${banner.effectiveFrom}. `}
        <a href="/terms-and-conditions/changes" className="font-medium underline">
          See what changed
        </a>
        {' · '}
        <a href="/terms/accept" className="font-medium underline">
          Read and accept the new version
        </a>
      </p>
    </aside>
  )
}

/** Rendered by the server like the terms' banner: what changed, when, and where to acknowledge it. */
function DocumentsBanner({
  documents,
}: {
  documents: { title: string; version: string; publishedOn: string | null }[]
}) {
  return (
    <aside
      aria-label="Changed documents"
      className="border-b border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-50"
    >
      <p className="mx-auto max-w-6xl">
        {documents
          .map(
            (document) =>
              `Our ${document.title} changed${document.publishedOn ? ` on ${document.publishedOn}` : ''} (version ${document.version}).`,
          )
          .join(' ')}{' '}
        Read it and acknowledge it before your next payment.{' '}
        <a href="/consents/accept?redirectTo=%2Faccount" className="font-medium underline">
          Read and acknowledge
        </a>
      </p>
    </aside>
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
  return <ErrorPage error={error} />
}

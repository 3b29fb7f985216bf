import { isRouteErrorResponse, Link, useLocation, useRouteLoaderData } from 'react-router'

const linkClass = 'font-medium text-green-700 underline dark:text-green-400'

/**
 * The status's own name: React Router names every thrown `data(..., { status })` "Internal Server
 * Error" unless the thrower says otherwise, which told a customer whose form was refused (400) that
 * the store had failed.
 */
const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** The root loader's answer, if it ran: only whether someone is signed in matters here. */
type RootData = { user: unknown } | undefined

/**
 * The root error boundary's page: the original store's 404 wording (docs/product.md section 2), no internals
 * outside development, and always a way on: the services, the home page and, for someone signed
 * in, their subscriptions.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const { pathname } = useLocation()
  const signedIn = Boolean(useRouteLoaderData<RootData>('root')?.user)
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section>
        <title>404 Not Found</title>
        <h1 className="text-2xl font-semibold">404 Not Found</h1>
        <p className="mt-2 break-words">No route matches URL &quot;{pathname}&quot;</p>
        <WaysOn signedIn={signedIn} />
      </section>
    )
  }
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : null
  return (
    <section>
      <title>Unexpected Application Error!</title>
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p className="mt-2">
        {isRouteErrorResponse(error)
          ? `${error.status} ${STATUS_NAMES[error.status] ?? 'Error'}`
          : 'Something went wrong on our side. Please try again.'}
      </p>
      {isRouteErrorResponse(error) && typeof error.data === 'string' && error.status < 500 ? (
        <p className="mt-2 break-words">{error.data}</p>
      ) : null}
      <WaysOn signedIn={signedIn} />
      {detail ? <pre className="mt-4 overflow-x-auto text-xs">{detail}</pre> : null}
    </section>
  )
}

function WaysOn({ signedIn }: { signedIn: boolean }) {
  return (
    <nav aria-label="Where to go next" className="mt-4">
      <ul className="list-disc space-y-2 pl-6">
        <li>
          <Link to="/services" className={linkClass}>
            Browse the services
          </Link>
        </li>
        {signedIn ? (
          <>
            <li>
              <Link to="/subscriptions" className={linkClass}>
                My subscriptions
              </Link>
            </li>
            <li>
              <Link to="/" className={linkClass}>
                Go to the home page
              </Link>
            </li>
          </>
        ) : null}
      </ul>
    </nav>
  )
}

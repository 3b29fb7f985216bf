import { isRouteErrorResponse, useLocation } from 'react-router'

/**
 * The root error boundary's page: the original store's 404 wording (docs/product.md), and no internals
 * outside development.
 */
export function ErrorPage({ error }: { error: unknown }) {
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
        {isRouteErrorResponse(error)
          ? `${error.status} ${error.statusText}`
          : 'Something went wrong on our side. Please try again.'}
      </p>
      {detail ? <pre className="mt-4 overflow-x-auto text-xs">{detail}</pre> : null}
    </section>
  )
}

import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, RouterProvider, useRouteError } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPage } from '~/components/error-page'

function BoundaryFromRouter() {
  return <ErrorPage error={useRouteError()} />
}

/** Renders the root boundary the way the router does: for a URL no route matches. */
function renderUnmatched(path: string) {
  const router = createMemoryRouter(
    [{ path: '/', ErrorBoundary: BoundaryFromRouter, children: [{ index: true, element: null }] }],
    {
      initialEntries: [path],
    },
  )
  return renderToStaticMarkup(<RouterProvider router={router} />)
}

function renderUnexpected(error: Error) {
  const router = createMemoryRouter([{ path: '*', element: <ErrorPage error={error} /> }])
  return renderToStaticMarkup(<RouterProvider router={router} />)
}

describe('ErrorPage', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('names the unmatched path on a 404', () => {
    const html = renderUnmatched('/no-such-page')
    expect(html).toContain('No route matches URL &quot;/no-such-page&quot;')
  })

  it("shows 'Unexpected Application Error!' (docs/product.md section 2) and hides the error in production", () => {
    vi.stubEnv('DEV', false)
    const html = renderUnexpected(new Error('database exploded'))
    expect(html).toContain('Unexpected Application Error!')
    expect(html).not.toContain('database exploded')
  })

  it('shows the stack to developers', () => {
    vi.stubEnv('DEV', true)
    expect(renderUnexpected(new Error('database exploded'))).toContain('database exploded')
  })
})

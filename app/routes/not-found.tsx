import { data } from 'react-router'

// Any path no other route matches. A page route (not React Router's no-match, not a resource route)
// so that the root loader runs: the 404 page has the header, demo banner and footer of every page.
function notFound(): never {
  throw data(null, { status: 404, statusText: 'Not Found' })
}

export const loader = notFound
export const action = notFound

/** Never rendered: the loader always throws, and the root error boundary shows the 404 page. */
export default function NotFound() {
  return null
}

/** Any other /api/v1 path: a JSON 404, never the HTML page. */
export function loader() {
  return Response.json({ message: 'There is no such API call.' }, { status: 404 })
}

export const action = loader

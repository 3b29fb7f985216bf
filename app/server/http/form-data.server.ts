import { data } from 'react-router'

export const MALFORMED_FORM_MESSAGE =
  'This request did not carry a form. Please go back, reload the page and try again.'

/**
 * The form a page action was posted. Anything else (JSON, plain text, no body, a broken multipart
 * body) is answered 400 with a message, instead of failing inside the route as a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw data(MALFORMED_FORM_MESSAGE, { status: 400 })
  }
}

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

type IntentHandler = (form: FormData) => unknown

/**
 * An action with several submit buttons, each `name="intent"` with its own value: runs the handler
 * the posted intent names, or `otherwise` for a form without a known intent (a stale page, a hand-made post).
 */
export async function dispatchIntent<Handlers extends Record<string, IntentHandler>, Otherwise extends IntentHandler>(
  form: FormData,
  handlers: Handlers,
  otherwise: Otherwise,
): Promise<Awaited<ReturnType<Handlers[keyof Handlers]>> | Awaited<ReturnType<Otherwise>>> {
  const intent = form.get('intent')
  const handler = typeof intent === 'string' && Object.hasOwn(handlers, intent) ? handlers[intent]! : otherwise
  return (await handler(form)) as Awaited<ReturnType<Handlers[keyof Handlers]>> | Awaited<ReturnType<Otherwise>>
}

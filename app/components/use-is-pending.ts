import { useFormAction, useNavigation } from 'react-router'

/**
 * Whether a form of this page is on its way: posted to this route's action (or `formAction`)
 * and not yet answered, including the loading that follows a redirect. Only the fields given in
 * `fields` narrow it to one form among several (one payment's buttons among a list of payments).
 */
export function useIsPending({
  formAction,
  formMethod = 'POST',
  state = 'non-idle',
  fields,
}: {
  formAction?: string
  formMethod?: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE'
  state?: 'submitting' | 'loading' | 'non-idle'
  fields?: Record<string, string>
} = {}): boolean {
  const contextualFormAction = useFormAction()
  const navigation = useNavigation()
  const inState = state === 'non-idle' ? navigation.state !== 'idle' : navigation.state === state
  if (!inState || navigation.formMethod !== formMethod) return false
  if (navigation.formAction !== (formAction ?? contextualFormAction)) return false
  return Object.entries(fields ?? {}).every(([name, value]) => navigation.formData?.get(name) === value)
}

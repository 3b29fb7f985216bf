import { redirect } from 'react-router'
import { redirectWithFlash } from '~/server/http/flash.server'
import { signOutHeaders } from '~/server/auth/sign-out.server'
import type { Route } from './+types/logout'

export async function action({ request }: Route.ActionArgs) {
  return redirectWithFlash(
    '/services',
    { tone: 'info', message: 'You are signed out.' },
    { headers: await signOutHeaders(request) },
  )
}

/** Logging out changes state, so a GET (a prefetch, a pasted link) does nothing. */
export function loader() {
  return redirect('/')
}

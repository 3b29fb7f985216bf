import type { z } from 'zod'
import { indiaIsoDate } from '~/domain/dates'
import { PAISE_PER_RUPEE } from '~/domain/money'
import type { ServiceListing } from './services.server'
import { getSessionUser, type SessionUser } from './session.server'

/** The JSON API's error shape: `{ message }`, plus per-field messages on a 400. */
export function apiError(status: number, message: string, extra: { errors?: Record<string, string[]>; headers?: HeadersInit } = {}) {
  return Response.json({ message, ...(extra.errors ? { errors: extra.errors } : {}) }, { status, headers: extra.headers })
}

export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (!user) throw apiError(401, 'Sign in first.')
  return user
}

/** The request's JSON body checked against `schema`; a bad body is a 400 with per-field messages. */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  let body: unknown
  try {
    body = await request.json()
  } catch {
    throw apiError(400, 'The request body must be JSON.')
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'body')] ??= []).push(issue.message)
    throw apiError(400, 'Some fields are not valid.', { errors })
  }
  return parsed.data
}

/** What a POST-only call answers to a GET. */
export function postOnly() {
  return apiError(405, 'Use POST for this call.', { headers: { Allow: 'POST' } })
}

/** SPEC's service shape: price in rupees, duration in days. */
export function serviceJson(service: ServiceListing) {
  return {
    _id: service.id,
    name: service.name,
    description: service.description,
    price: service.pricePaise / PAISE_PER_RUPEE,
    duration: service.durationDays,
  }
}

export function serviceEntryJson(service: ServiceListing) {
  return { _id: service.id, service: serviceJson(service) }
}

/** SPEC's currentUser: name, email, dob, pan, pancard (where to fetch the image) and agreement. */
export function currentUserJson(user: SessionUser) {
  return {
    name: user.name,
    email: user.email,
    dob: user.dateOfBirth ? indiaIsoDate(user.dateOfBirth) : null,
    pan: user.pan,
    pancard: user.panCardKey ? '/details/pan-card' : null,
    agreement: user.agreementAcceptedAt !== null,
  }
}

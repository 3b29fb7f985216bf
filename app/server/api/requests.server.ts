import type { AppLoadContext } from 'react-router'
import type { z } from 'zod'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { profileIncompleteMessage, profileStep } from '~/domain/profile'
import { CONTROL_CHARACTER_MESSAGE, jsonHasControlCharacter } from '~/domain/control-characters'
import { PaymentError } from '../payments/core.server'
import { getSessionUser, type SessionUser } from '../session.server'
import { termsNotAcceptedMessage, termsToAccept } from '../account/terms-versions.server'
import { consentsMissingToPay } from '../account/acceptances.server'
import { currentVersions } from '../account/agreement.server'
import { consentsBeforePayingMessage } from '~/domain/consent'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('api')

// What every /api/v1 call shares: the method, the JSON body, who is asking, and the error shape (docs/api.md).

/** The JSON API's error shape: `{ message }`, plus per-field messages on a 400. */
export function apiError(
  status: number,
  message: string,
  extra: { errors?: Record<string, string[]>; headers?: HeadersInit } = {},
) {
  return Response.json(
    { message, ...(extra.errors ? { errors: extra.errors } : {}) },
    { status, headers: extra.headers },
  )
}

/** 429 with `Retry-After` in whole seconds (at least 1), when the client may try again. */
export function tooManyRequests(message: string, retryAfterMs: number) {
  return apiError(429, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } })
}

export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (!user) throw apiError(401, 'Sign in first.')
  return user
}

/**
 * Paying needs a complete profile (the one rule: profileStep; 403 names the first missing step),
 * the terms in force accepted (termsToAccept, the check every paying path makes; 403 names the
 * version), and the Investor Charter and the consent to processing personal data acknowledged
 * (consentsMissingToPay; 409 names them with their current versions, for set-agreement).
 */
export async function requireApiCustomer(request: Request, now = new Date()): Promise<SessionUser> {
  const user = await requireApiUser(request)
  const step = profileStep(user)
  if (step !== 'complete') throw apiError(403, profileIncompleteMessage(step))
  const terms = await termsToAccept(user, now)
  if (terms) throw apiError(403, termsNotAcceptedMessage(terms.version))
  const missing = await consentsMissingToPay(user.id)
  if (missing.length) {
    const current = currentVersions()
    throw Response.json(
      { message: consentsBeforePayingMessage(missing, current), data: { missing, documents: current } },
      { status: 409 },
    )
  }
  return user
}

/**
 * A PaymentError as the API's answer: its status and message; a changed total adds `amount`, the
 * right one in rupees, and unavailable services add `droppedIds`. Anything else is rethrown.
 */
export function paymentErrorResponse(error: unknown): Response {
  if (!(error instanceof PaymentError)) throw error
  return Response.json(
    {
      message: error.message,
      ...(error.amountPaise !== null ? { amount: error.amountPaise / PAISE_PER_RUPEE } : {}),
      ...(error.droppedIds.length ? { droppedIds: error.droppedIds } : {}),
    },
    { status: error.status },
  )
}

/**
 * JSON bodies above this are refused unread (413). The largest real body is a create-order cart:
 * The existing clients send whole service entries, about 2 KiB each with the longest description the
 * admin allows (2,000 characters in at most 10 lines), so about 28 of those fit; the demo's whole catalogue
 * of five is under 2 KiB.
 */
export const JSON_BODY_MAX_BYTES = 64 * 1024
export const JSON_BODY_TOO_LARGE_MESSAGE = `The request body is too large: at most ${JSON_BODY_MAX_BYTES / 1024} KiB.`

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a moment.'

type ApiArgs = { request: Request; context: AppLoadContext }

/** The answer to a GET call asked with another method. */
export function getOnly() {
  return apiError(405, 'Use GET for this call.', { headers: { Allow: 'GET' } })
}

/** The answer to a POST call asked with another method. */
export function postOnly() {
  return apiError(405, 'Use POST for this call.', { headers: { Allow: 'POST' } })
}

/**
 * Every /api/v1 call runs inside this: a thrown Response (401, 400, ...) is the answer, and any
 * other exception is logged once and answered 500 `{ message }`, never React Router's text page
 * with the error in it.
 */
async function runApiCall<Args extends ApiArgs>(
  handler: (args: Args) => Response | Promise<Response>,
  args: Args,
): Promise<Response> {
  try {
    return await handler(args)
  } catch (error) {
    if (error instanceof Response) return error
    log.error({ err: error }, `${args.request.method} ${new URL(args.request.url).pathname} failed`)
    return apiError(500, UNEXPECTED_ERROR_MESSAGE)
  }
}

/** A GET call's loader (HEAD too); React Router also hands OPTIONS to loaders, which gets 405. */
export function apiGet<Args extends ApiArgs>(handler: (args: Args) => Response | Promise<Response>) {
  return async (args: Args): Promise<Response> =>
    ['GET', 'HEAD'].includes(args.request.method) ? runApiCall(handler, args) : getOnly()
}

/** A POST call's action; React Router hands PUT, PATCH and DELETE to actions too, which get 405. */
export function apiPost<Args extends ApiArgs>(handler: (args: Args) => Response | Promise<Response>) {
  return async (args: Args): Promise<Response> =>
    args.request.method === 'POST' ? runApiCall(handler, args) : postOnly()
}

/**
 * The request's JSON body checked against `schema`: 413 above JSON_BODY_MAX_BYTES (what is left
 * stays unread and the connection is closed, as for PAN card uploads: decision 002), 400 when it
 * is not JSON, 400 with per-field messages when it does not fit the schema.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  const tooLarge = () => apiError(413, JSON_BODY_TOO_LARGE_MESSAGE, { headers: { Connection: 'close' } })
  const notJson = () => apiError(400, 'The request body must be JSON.')
  if (Number(request.headers.get('Content-Length')) > JSON_BODY_MAX_BYTES) throw tooLarge()
  if (!request.body) throw notJson()

  const chunks: Uint8Array[] = []
  let bytesRead = 0
  const reader = request.body.getReader()
  try {
    while (true) {
      const chunk = await reader.read()
      if (chunk.done) break
      bytesRead += chunk.value.byteLength
      if (bytesRead > JSON_BODY_MAX_BYTES) throw tooLarge()
      chunks.push(chunk.value)
    }
  } catch (error) {
    if (error instanceof Response) throw error
    // The client gave up half-way.
    throw notJson()
  } finally {
    reader.releaseLock()
  }

  let body: unknown
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)))
  } catch {
    throw notJson()
  }
  if (jsonHasControlCharacter(body)) throw apiError(400, CONTROL_CHARACTER_MESSAGE)
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'body')] ??= []).push(issue.message)
    throw apiError(400, 'Some fields are not valid.', { errors })
  }
  return parsed.data
}

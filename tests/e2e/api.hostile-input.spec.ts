// The store's standing security record: for every route of app/routes.ts, what an attacker or a
// broken client sends, the exact answer, and that the customer's data did not change. A route added
// without a row here fails the first test. Plain requests, no browser (Playwright project `api`).
// Beside it: parallel code guessing (tests/integration/otp.test.ts), CSV injection
// (tests/integration/admin-export.test.ts), control characters in every input
// (tests/integration/text-input.test.ts), every admin URL and method (api.admin-wall.spec.ts).
import { randomInt } from 'node:crypto'
import net from 'node:net'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { INVALID_CURSOR_MESSAGE } from '../../app/components/pager'
import { NOMINEE_UNREACHABLE_MESSAGE } from '../../app/domain/data-nominee'
import { UNKNOWN_SERVICE_FILTER_MESSAGE } from '../../app/domain/research-list'
import routes from '../../app/routes'
import {
  apiClient,
  availableServices,
  checkoutBody,
  customerWithCart,
  json,
  PNG_1X1,
  PROFILE_DETAILS,
} from './api-client'
import { uniquePan } from '../support/sample-customer'
import { withE2eDatabase } from './database'

/** `started`: the profile's first step done (details with an adult date of birth), not the rest. */
type Persona = 'visitor' | 'customer' | 'started' | 'complete' | 'admin'
type HostileCase = {
  what: string
  as?: Persona
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  form?: Record<string, string>
  json?: unknown
  body?: string | Buffer
  headers?: Record<string, string>
  /** The exact status. */
  status: number
  /** Text the answer must hold (the message the customer reads). */
  says?: string | RegExp
  /** Where a redirect must lead. */
  location?: string | RegExp
}

const NUL = '\u0000'
const SOME_ID = '00000000-0000-4000-8000-000000000000'
const CONTROL_CHARACTERS = 'Remove the control characters (such as NUL) from this text.'
const NOT_FOUND_PAGE = '404 Not Found'
const NOT_A_FORM = 'This request did not carry a form.'
const BROKEN_MULTIPART = { 'content-type': 'multipart/form-data; boundary=nothing-like-it' }
const JSON_BODY = { 'content-type': 'application/json' }
const TAMPERED_CART = JSON.stringify([
  { _id: SOME_ID, service: { _id: SOME_ID, name: 'Free', price: 0, duration: 365 } },
])

/** A complete buy call but for the field each row spoils. */
const HOSTILE_CALL = {
  kind: 'call',
  title: 'Buy HDFC Bank',
  body: 'Deposits grow.',
  serviceIds: SOME_ID,
  financialInterest: 'no',
  ownershipOnePercent: 'no',
  compensationPastYear: 'no',
  aiToolsUsed: 'no',
  otherConflict: 'None',
  exchange: 'NSE',
  symbol: 'HDFCBANK',
  action: 'BUY',
  entryLow: '1500',
  targets: '1600',
  stopLoss: '1450',
  horizon: '3 months',
}

const BOUNDARY = 'hostile-input-boundary'
function multipartFile(field: string, filename: string, type: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** A complaint form post with its fields and, as the attachment, `file`. */
function complaintMultipart(
  fields: Record<string, string>,
  file?: { filename: string; type: string; content: Buffer },
): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return Buffer.concat([
    Buffer.from(parts.join('')),
    file
      ? Buffer.concat([
          Buffer.from(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
          ),
          file.content,
          Buffer.from('\r\n'),
        ])
      : Buffer.alloc(0),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ])
}
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }

/** A page cursor (app/domain/keyset.ts) of the lists ordered by (time, uuid), and one of the audit log's (serial). */
const TIMED_CURSOR = `1767225600000_${SOME_ID}`
const SERIAL_CURSOR = '123'

/**
 * Page links an admin's browser could carry changed (by hand, a cut-off paste, a link of another list):
 * the list answers with its first page and says the link was not valid (tests/e2e/admin-paging.spec.ts
 * shows the rows of that first page).
 */
function tamperedCursors(path: string, ofThisList: string, ofAnotherList: string): HostileCase[] {
  const at = `${path}${path.includes('?') ? '&' : '?'}`
  const cases: [string, string][] = [
    ['garbage after', `after=${encodeURIComponent("1' OR '1'='1")}`],
    ['garbage before', `before=${encodeURIComponent(`${NUL}\xff_${SOME_ID}`)}`],
    ['a cursor of another list', `after=${ofAnotherList}`],
    ['a cursor of another list, before', `before=${ofAnotherList}`],
    ['an over-long cursor', `after=${ofThisList}${'9'.repeat(5000)}`],
    ['an over-long cursor, before', `before=${ofThisList.padEnd(81, '0')}`],
    ['after and before at once', `after=${ofThisList}&before=${ofThisList}`],
  ]
  return cases.map(([what, query]) => ({
    what: `an admin with a page link changed: ${what}`,
    as: 'admin',
    url: `${at}${query}`,
    status: 200,
    says: INVALID_CURSOR_MESSAGE,
  }))
}
const COMPLAINT = { intent: 'file', category: 'OTHER', text: 'The note did not arrive.' }

/** Every route file of app/routes.ts, with the cases that attack it. */
const BATTERY: Record<string, HostileCase[]> = {
  'routes/home.tsx': [
    {
      what: 'a forged session cookie is nobody',
      url: '/',
      headers: { cookie: 'session=forged.value' },
      status: 302,
      location: /^\/auth/,
    },
  ],
  'routes/auth.tsx': [
    {
      what: 'NUL in the mobile number',
      method: 'POST',
      url: '/auth',
      form: { intent: 'send', country: 'IN', mobile: `98765${NUL}4321` },
      status: 400,
    },
    {
      what: 'a code to check with no number waiting',
      method: 'POST',
      url: '/auth',
      form: { intent: 'verify', code: '123456' },
      status: 400,
    },
    { what: 'an unknown intent', method: 'POST', url: '/auth', form: { intent: 'drop-tables' }, status: 400 },
    {
      what: 'JSON instead of a form',
      method: 'POST',
      url: '/auth',
      body: '{"intent":"send"}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
    {
      what: 'a broken multipart body',
      method: 'POST',
      url: '/auth',
      body: 'garbage',
      headers: BROKEN_MULTIPART,
      status: 400,
      says: NOT_A_FORM,
    },
    { what: 'no body at all', method: 'POST', url: '/auth', status: 400, says: NOT_A_FORM },
    {
      what: 'an open redirect after signing in',
      url: '/auth?redirectTo=%2F%2Fevil.example',
      status: 200,
      says: 'redirectTo=%2F',
    },
    { what: 'a non-ASCII redirect target', url: '/auth?redirectTo=%2F%E2%98%83', status: 200 },
    { what: 'a signed-in customer is sent on', as: 'customer', url: '/auth', status: 302 },
  ],
  'routes/details.tsx': [
    { what: 'a visitor is sent to sign in', url: '/details', status: 302, location: /^\/auth/ },
    {
      what: 'NUL in the e-mail',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { name: 'asha rao', email: `asha${NUL}@example.in`, dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: /e-mail|control characters/i,
    },
    {
      what: 'markup in the e-mail',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { name: 'asha rao', email: '"><img/src=x/onerror=alert(1)>@x.co', dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: 'Enter an e-mail address like name@example.com.',
    },
    {
      what: 'an e-mail of 65,000 characters',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { name: 'asha rao', email: `${'a'.repeat(64_990)}@example.in`, dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: 'Your e-mail address can have at most 254 characters.',
    },
    {
      what: 'JSON instead of a form',
      as: 'customer',
      method: 'POST',
      url: '/details',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
    {
      what: 'a broken multipart body',
      as: 'started',
      method: 'POST',
      url: '/details',
      body: 'garbage',
      headers: BROKEN_MULTIPART,
      status: 400,
    },
    {
      what: "a new PAN card for a complete profile's (sent to the correction request page)",
      as: 'complete',
      method: 'POST',
      url: '/details',
      body: multipartFile('pancard', 'pan.png', 'image/png', PNG_1X1),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 302,
      location: '/account/corrections',
    },
    {
      what: 'an invalid PAN',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { name: 'asha rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCDE12345' },
      status: 400,
    },
    {
      what: 'a script in the name',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { name: '<script>alert(1)</script>', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: 'Use letters and spaces only in your name.',
    },
    {
      what: 'a stale version of each document',
      as: 'started',
      method: 'POST',
      url: '/details',
      form: {
        intent: 'accept-agreement',
        'acknowledge-TERMS': 'agreement-000000000000',
        'acknowledge-MITC': 'mitc-000000000000',
        'acknowledge-CONSENT_STATEMENT': 'consent-000000000000',
        'acknowledge-INVESTOR_CHARTER': 'charter-000000000000',
        'acknowledge-PERSONAL_DATA': 'privacy-000000000000',
      },
      status: 409,
      says: 'These documents were updated while you were reading them: Terms and Conditions,',
    },
    {
      what: 'the old single-version form (no box ticked)',
      as: 'started',
      method: 'POST',
      url: '/details',
      form: { intent: 'accept-agreement', version: 'agreement-000000000000' },
      status: 400,
      says: 'Tick each box to continue. Not yet acknowledged: Terms and Conditions,',
    },
    {
      what: 'a text file posing as the PAN card image',
      as: 'started',
      method: 'POST',
      url: '/details',
      body: multipartFile('pancard', 'pan.png', 'image/png', Buffer.from('not an image at all')),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 415,
    },
    {
      what: 'the agreement before any date of birth is saved',
      as: 'customer',
      method: 'POST',
      url: '/details',
      form: { intent: 'accept-agreement' },
      status: 409,
      says: 'Save your details first',
    },
    {
      what: 'a PAN card image before any date of birth is saved',
      as: 'customer',
      method: 'POST',
      url: '/details',
      body: multipartFile('pancard', 'pan.png', 'image/png', PNG_1X1),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 409,
      says: 'Save your details first',
    },
  ],
  'routes/details.pan-card.ts': [
    { what: 'a visitor sees no image', url: '/details/pan-card', status: 302, location: /^\/auth/ },
    { what: 'a customer without an image', as: 'customer', url: '/details/pan-card', status: 404 },
  ],
  'routes/complaints.tsx': [
    {
      what: 'a visitor sees no complaints',
      url: '/complaints',
      status: 302,
      location: /^\/auth\?redirectTo=%2Fcomplaints$/,
    },
    { what: 'a write to the list', as: 'customer', method: 'POST', url: '/complaints', form: { x: '1' }, status: 405 },
  ],
  'routes/complaints.new.tsx': [
    {
      what: 'a visitor filing without a confirmed phone or e-mail files nothing',
      method: 'POST',
      url: '/complaints/new',
      body: complaintMultipart(COMPLAINT),
      headers: MULTIPART,
      status: 403,
      says: 'Confirm your mobile number or e-mail address with a code before you file.',
    },
    {
      what: 'a contact that is neither a number nor an address',
      method: 'POST',
      url: '/complaints/new',
      form: { intent: 'send', contact: `x${NUL}@example.in` },
      status: 400,
      says: 'Enter your 10-digit mobile number (India) or your e-mail address.',
    },
    {
      what: 'a code check with no code asked',
      method: 'POST',
      url: '/complaints/new',
      form: { intent: 'verify', code: '123456' },
      status: 400,
      says: 'Your code took too long.',
    },
    {
      what: 'a 60 KB complaint sent as a plain form meets the 64 KiB form cap',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      form: { ...COMPLAINT, text: 'x'.repeat(70 * 1024) },
      status: 413,
      says: 'The request is too large: at most 64 KiB.',
    },
    {
      what: 'a 60 KB complaint from the page is refused with the form’s message',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      body: complaintMultipart({ ...COMPLAINT, text: 'x'.repeat(60 * 1024) }),
      headers: MULTIPART,
      status: 400,
      says: 'Your complaint is too long: at most 5,000 characters.',
    },
    {
      what: 'NUL in the complaint',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      body: complaintMultipart({ ...COMPLAINT, text: `a${NUL}b` }),
      headers: MULTIPART,
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'a PDF as the attachment',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      body: complaintMultipart(COMPLAINT, {
        filename: 'proof.png',
        type: 'image/png',
        content: Buffer.from('%PDF-1.7 not an image'),
      }),
      headers: MULTIPART,
      status: 415,
      says: 'Attach a JPEG, PNG or WebP image.',
    },
    {
      what: 'a category that does not exist',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      body: complaintMultipart({ ...COMPLAINT, category: 'DROP TABLE' }),
      headers: MULTIPART,
      status: 400,
      says: 'Choose what your complaint is about.',
    },
    {
      what: 'a broken multipart body',
      as: 'customer',
      method: 'POST',
      url: '/complaints/new',
      body: 'junk',
      headers: BROKEN_MULTIPART,
      status: 400,
    },
  ],
  'routes/logout.tsx': [
    {
      what: 'a GET (a prefetch, a pasted link) logs nobody out',
      as: 'customer',
      url: '/logout',
      status: 302,
      location: '/',
    },
  ],
  'routes/services.tsx': [
    {
      what: 'NUL in a service id',
      as: 'customer',
      method: 'POST',
      url: '/services',
      form: { intent: 'add', serviceId: `x${NUL}` },
      status: 400,
    },
    {
      what: 'a service that does not exist',
      as: 'customer',
      method: 'POST',
      url: '/services',
      form: { intent: 'add', serviceId: SOME_ID },
      status: 400,
    },
    {
      what: 'JSON instead of a form',
      as: 'customer',
      method: 'POST',
      url: '/services',
      body: '{"intent":"add"}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/pay.tsx': [
    { what: 'a customer with an incomplete profile', as: 'customer', url: '/pay', status: 302, location: /^\/details/ },
    {
      what: 'an unknown intent',
      as: 'complete',
      method: 'POST',
      url: '/pay',
      form: { intent: 'free' },
      status: 400,
      says: 'Something was missing from the form.',
    },
    {
      what: 'a broken multipart body',
      as: 'complete',
      method: 'POST',
      url: '/pay',
      body: 'garbage',
      headers: BROKEN_MULTIPART,
      status: 400,
      says: NOT_A_FORM,
    },
    {
      what: 'a UTR with markup',
      as: 'complete',
      method: 'POST',
      url: '/pay',
      form: { intent: 'manual', utr: '<b>UTR</b>' },
      status: 400,
    },
    {
      what: 'verifying a forged signature for a foreign order',
      as: 'complete',
      method: 'POST',
      url: '/pay',
      form: {
        intent: 'verify',
        razorpay_order_id: 'order_foreign',
        razorpay_payment_id: 'pay_x',
        razorpay_signature: '0'.repeat(64),
      },
      status: 400,
    },
  ],
  'routes/subscriptions.tsx': [
    {
      what: 'another customer’s claim (or none) gets no reference',
      as: 'complete',
      method: 'POST',
      url: '/subscriptions',
      form: { paymentId: SOME_ID, utr: 'UTR1234567890' },
      status: 409,
      says: 'no longer waiting for verification',
    },
    {
      what: 'NUL in the reference',
      as: 'complete',
      method: 'POST',
      url: '/subscriptions',
      form: { paymentId: SOME_ID, utr: `UTR${NUL}1` },
      status: 400,
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/subscriptions',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/subscriptions.end.tsx': [
    { what: 'a visitor is sent to sign in', url: `/subscriptions/${SOME_ID}/end`, status: 302, location: /^\/auth/ },
    {
      what: 'a service id that is not one',
      as: 'complete',
      method: 'POST',
      url: '/subscriptions/not-an-id/end',
      form: {},
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/subscriptions.auto-renew.tsx': [
    {
      what: 'a visitor is sent to sign in',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      status: 302,
      location: /^\/auth/,
    },
    {
      what: 'a service id that is not one',
      as: 'complete',
      url: '/subscriptions/not-an-id/auto-renew',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a service that does not exist',
      as: 'complete',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    // The consent's own refusals shown on the page (no box, a forged hash) are in
    // tests/e2e/auto-renew.spec.ts, on a service the customer holds.
    {
      what: 'turning it on without ticking the consent',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'turn-on', consentSha256: 'a'.repeat(64) },
      status: 400,
    },
    {
      what: 'a consent hash with NUL in it',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'turn-on', consent: 'authorised', consentSha256: `${'a'.repeat(63)}${NUL}` },
      status: 400,
    },
    {
      what: 'a consent to a service that does not exist',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'turn-on', consent: 'authorised', consentSha256: 'a'.repeat(64) },
      status: 404,
    },
    {
      what: 'stopping a mandate that is not theirs (or none)',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'stop', mandateId: SOME_ID },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'stopping a mandate id that is not one',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'stop', mandateId: "1' OR '1'='1" },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'an unknown intent',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      form: { intent: 'charge-now' },
      status: 400,
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: `/subscriptions/${SOME_ID}/auto-renew`,
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/research.tsx': [
    { what: 'a visitor is sent to sign in', url: '/research', status: 302, location: /^\/auth/ },
    {
      what: 'a service filter that is not one of theirs',
      as: 'complete',
      url: `/research?service=${SOME_ID}`,
      status: 200,
      says: UNKNOWN_SERVICE_FILTER_MESSAGE,
    },
    {
      what: 'a malformed filter and cursor',
      as: 'complete',
      url: `/research?service=%00%3Cscript%3E&after=${'9'.repeat(300)}`,
      status: 200,
      says: INVALID_CURSOR_MESSAGE,
    },
  ],
  'routes/research.item.tsx': [
    { what: 'a visitor is sent to sign in', url: `/research/${SOME_ID}`, status: 302, location: /^\/auth/ },
    {
      what: 'an item the customer was not delivered',
      as: 'complete',
      url: `/research/${SOME_ID}`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    { what: 'an id that is not one', as: 'complete', url: '/research/..%2Fadmin', status: 404, says: NOT_FOUND_PAGE },
  ],
  'routes/research.item-attachment.ts': [
    { what: 'a visitor is sent to sign in', url: `/research/${SOME_ID}/attachment`, status: 302, location: /^\/auth/ },
    {
      what: 'the attachment of an item the customer was not delivered',
      as: 'complete',
      url: `/research/${SOME_ID}/attachment`,
      status: 404,
    },
  ],
  'routes/renew.tsx': [
    { what: 'a visitor is sent to sign in', url: `/renew/${SOME_ID}`, status: 302, location: /^\/auth\?redirectTo=/ },
    {
      what: 'a service id that is not one',
      as: 'complete',
      url: '/renew/not-an-id',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a service that does not exist',
      as: 'complete',
      url: `/renew/${SOME_ID}`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    { what: 'NUL in the service id', as: 'complete', url: '/renew/%00', status: 404, says: NOT_FOUND_PAGE },
  ],
  'routes/invoices.tsx': [{ what: 'a visitor is sent to sign in', url: '/invoices', status: 302, location: /^\/auth/ }],
  'routes/invoice.tsx': [
    { what: 'a visitor is sent to sign in', url: '/invoices/INV/2627/000001', status: 302, location: /^\/auth/ },
    {
      what: 'a number that is not the customer’s',
      as: 'complete',
      url: '/invoices/INV/0000/999999',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/family-members.tsx': [
    { what: 'a visitor is sent to sign in', url: '/family-members', status: 302, location: /^\/auth/ },
    {
      what: 'NUL in a family member’s PAN',
      as: 'complete',
      method: 'POST',
      url: '/family-members',
      form: { 'family[0].pan': `BCDPF${NUL}345G`, 'family[0].relation': 'SPOUSE' },
      status: 400,
      says: /control characters|5 letters, 4 digits/i,
    },
    {
      what: 'a relation that is not one of the three',
      as: 'complete',
      method: 'POST',
      url: '/family-members',
      form: { 'family[0].pan': 'BCDPF2345G', 'family[0].relation': 'FRIEND' },
      status: 400,
      says: 'Choose how this person is related to you.',
    },
    {
      what: 'eleven family members',
      as: 'complete',
      method: 'POST',
      url: '/family-members',
      form: Object.fromEntries(
        Array.from({ length: 11 }, (_, index) => [
          [`family[${index}].pan`, `BCDPF${String(index).padStart(4, '0')}G`],
          [`family[${index}].relation`, 'CHILD'],
        ]).flat(),
      ),
      status: 400,
      says: 'List at most 10 family members.',
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/family-members',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/account.corrections.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account/corrections', status: 302, location: /^\/auth/ },
    {
      what: 'an incomplete profile is sent to the wizard',
      as: 'customer',
      url: '/account/corrections',
      status: 302,
      location: /^\/details/,
    },
    {
      what: 'NUL in the corrected name',
      as: 'complete',
      method: 'POST',
      url: '/account/corrections',
      form: { intent: 'correction', name: `asha${NUL}rao`, reason: 'typo' },
      status: 400,
      says: 'Use letters and spaces only in your name.',
    },
    {
      what: 'a corrected PAN that is not an individual’s',
      as: 'complete',
      method: 'POST',
      url: '/account/corrections',
      form: { intent: 'correction', pan: 'ABCDE1234F', reason: 'typo' },
      status: 400,
      says: "This is not an individual's PAN",
    },
    {
      what: 'a request that changes nothing',
      as: 'complete',
      method: 'POST',
      url: '/account/corrections',
      form: { intent: 'correction', name: '', pan: '', dob: '', reason: 'nothing' },
      status: 400,
      says: 'Enter at least one new value',
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/account/corrections',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/account.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account', status: 302, location: /^\/auth/ },
    {
      what: 'closing with a code of letters',
      as: 'complete',
      method: 'POST',
      url: '/account',
      form: { intent: 'close', code: 'abcdef' },
      status: 400,
      says: 'Enter the 6-digit code we sent you.',
    },
    {
      what: 'an intent the page does not have',
      as: 'complete',
      method: 'POST',
      url: '/account',
      form: { intent: 'erase-everything' },
      status: 409,
      says: 'Choose what to do.',
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/account',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/account.data-json.ts': [
    { what: 'a visitor is sent to sign in', url: '/account/data.json', status: 302, location: /^\/auth/ },
    {
      what: 'a POST, which it does not take',
      as: 'complete',
      method: 'POST',
      url: '/account/data.json',
      form: { anything: 'x' },
      status: 405,
    },
  ],
  'routes/account.email.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account/email', status: 302, location: /^\/auth/ },
    {
      what: 'an address with angle brackets',
      as: 'complete',
      method: 'POST',
      url: '/account/email',
      form: { intent: 'send-code', email: '<script>@example.in' },
      status: 400,
      says: 'Enter an e-mail address like name@example.com.',
    },
    {
      what: 'a code of letters',
      as: 'complete',
      method: 'POST',
      url: '/account/email',
      form: { intent: 'confirm', email: 'new@example.in', code: 'abcdef' },
      status: 400,
      says: 'Enter the 6-digit code we sent you.',
    },
    {
      what: 'a code never sent',
      as: 'complete',
      method: 'POST',
      url: '/account/email',
      form: { intent: 'confirm', email: 'never@example.in', code: '123456' },
      status: 400,
      says: 'There is no code waiting for this address.',
    },
  ],
  'routes/account.nominee.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account/nominee', status: 302, location: /^\/auth/ },
    {
      what: 'a nominee nobody can reach',
      as: 'complete',
      method: 'POST',
      url: '/account/nominee',
      form: { intent: 'save', name: 'Meera Rao', relationship: 'Spouse' },
      status: 400,
      says: NOMINEE_UNREACHABLE_MESSAGE,
    },
    {
      what: 'NUL in the name',
      as: 'complete',
      method: 'POST',
      url: '/account/nominee',
      form: { intent: 'save', name: 'Ra\u0000vi', relationship: 'Son', email: 'ravi@example.in' },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
  ],
  'routes/account.accredited-investor.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account/accredited-investor', status: 302, location: /^\/auth/ },
    {
      what: 'a visitor opting in',
      method: 'POST',
      url: '/account/accredited-investor',
      form: { intent: 'opt-in', confirm: 'on', statementSha256: 'a'.repeat(64) },
      status: 302,
      location: /^\/auth/,
    },
    {
      what: 'an opt-in with no certificate on record (the admin never recorded one)',
      as: 'complete',
      method: 'POST',
      url: '/account/accredited-investor',
      form: { intent: 'opt-in', confirm: 'on', statementSha256: 'a'.repeat(64) },
      status: 409,
      says: 'We have no accreditation certificate of yours on record.',
    },
    {
      what: 'an intent the page does not have',
      as: 'complete',
      method: 'POST',
      url: '/account/accredited-investor',
      form: { intent: 'exempt-me' },
      status: 409,
      says: 'Choose what to do.',
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/account/accredited-investor',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/account.research-channels.tsx': [
    { what: 'a visitor is sent to sign in', url: '/account/research-channels', status: 302, location: /^\/auth/ },
    {
      what: 'a visitor choosing channels',
      method: 'POST',
      url: '/account/research-channels',
      form: { intent: 'save', sms: 'on' },
      status: 302,
      location: /^\/auth/,
    },
    {
      what: 'an intent the page does not have',
      as: 'complete',
      method: 'POST',
      url: '/account/research-channels',
      form: { intent: 'link-someone-else' },
      status: 409,
      says: 'Choose what to do.',
    },
    {
      what: 'JSON instead of a form',
      as: 'complete',
      method: 'POST',
      url: '/account/research-channels',
      body: '{}',
      headers: JSON_BODY,
      status: 400,
      says: NOT_A_FORM,
    },
  ],
  'routes/webhooks.msg91.ts': [
    {
      what: 'a forged delivery report where no MSG91_WEBHOOK_SECRET is set',
      method: 'POST',
      url: '/webhooks/msg91?secret=guess',
      form: { data: '[{"requestId":"forged","report":[{"status":"1"}]}]' },
      status: 404,
    },
  ],
  'routes/webhooks.telegram.ts': [
    {
      what: 'no secret token',
      method: 'POST',
      url: '/webhooks/telegram',
      body: '{"update_id":1,"message":{"chat":{"id":1,"type":"private"},"text":"/start x"}}',
      headers: JSON_BODY,
      status: 401,
    },
    {
      what: 'a forged secret token',
      method: 'POST',
      url: '/webhooks/telegram',
      body: '{"update_id":2,"message":{"chat":{"id":1,"type":"private"},"text":"/stop"}}',
      headers: { ...JSON_BODY, 'x-telegram-bot-api-secret-token': 'forged-secret-forged-secret-forged' },
      status: 401,
    },
    { what: 'a GET, which it does not take', url: '/webhooks/telegram', status: 405 },
  ],
  'routes/payments.callback.ts': [
    {
      what: 'a forged signature',
      method: 'POST',
      url: '/payments/callback',
      form: { razorpay_order_id: 'order_x', razorpay_payment_id: 'pay_x', razorpay_signature: '0'.repeat(64) },
      status: 303,
      location: '/pay?outcome=unverified',
    },
    {
      what: 'NUL in the order id',
      method: 'POST',
      url: '/payments/callback',
      form: { razorpay_order_id: `order${NUL}`, razorpay_payment_id: 'pay_x', razorpay_signature: '0'.repeat(64) },
      status: 303,
      location: '/pay?outcome=unverified',
    },
    {
      what: 'a body that is not a form',
      method: 'POST',
      url: '/payments/callback',
      body: '{"razorpay_order_id":1}',
      headers: { 'content-type': 'application/json' },
      status: 303,
      location: '/pay?outcome=unverified',
    },
  ],
  'routes/payments.cancel.ts': [
    {
      what: 'someone else’s order is not cancelled',
      as: 'complete',
      url: '/payments/cancel?order=order_someone_else',
      status: 303,
      location: '/pay?outcome=dismissed',
    },
    {
      what: 'NUL in the order id',
      url: `/payments/cancel?order=${encodeURIComponent(NUL)}`,
      status: 303,
      location: '/pay?outcome=dismissed',
    },
  ],
  'demo/outbox.tsx': [{ what: 'NUL in the recipient', url: `/dev/outbox?to=${encodeURIComponent(NUL)}`, status: 400 }],
  'demo/outbox.json.ts': [
    { what: 'everyone’s codes at once', url: '/dev/outbox.json', status: 400, says: 'is required: the phone number' },
    {
      what: 'NUL in the recipient',
      url: `/dev/outbox.json?to=${encodeURIComponent(NUL)}`,
      status: 400,
      says: CONTROL_CHARACTERS,
    },
  ],
  'demo/telegram-start.tsx': [
    { what: 'no deep-link token', url: '/dev/telegram/start', status: 400 },
    { what: 'a token with markup', url: `/dev/telegram/start?start=${encodeURIComponent('<script>')}`, status: 400 },
    {
      what: 'a chat id of letters',
      method: 'POST',
      url: '/dev/telegram/start?start=abc',
      form: { token: 'abc', chatId: 'me' },
      status: 400,
      says: 'Give the token and a chat id of digits.',
    },
  ],
  'routes/admin/layout.tsx': [
    { what: 'a customer', as: 'customer', url: '/admin/payments', status: 404, says: NOT_FOUND_PAGE },
  ],
  'routes/admin/index.tsx': [{ what: 'a visitor', url: '/admin', status: 404, says: NOT_FOUND_PAGE }],
  'routes/admin/payments.tsx': [
    {
      what: 'a customer confirming a claim',
      as: 'complete',
      method: 'POST',
      url: '/admin/payments',
      form: { intent: 'confirm', paymentId: SOME_ID },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    ...tamperedCursors('/admin/payments', TIMED_CURSOR, SERIAL_CURSOR),
    ...tamperedCursors('/admin/payments?method=GATEWAY&status=FAILED&from=2026-01-01', TIMED_CURSOR, SERIAL_CURSOR),
  ],
  'routes/admin/services.tsx': [
    {
      what: 'a customer',
      as: 'customer',
      method: 'POST',
      url: '/admin/services',
      form: { intent: 'deactivate', serviceId: SOME_ID },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/service-edit.tsx': [
    {
      what: 'a customer creating a free service',
      as: 'customer',
      method: 'POST',
      url: '/admin/services/new',
      form: { name: 'Free', price: '0', durationDays: '365' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a customer editing a service',
      as: 'customer',
      method: 'PUT',
      url: `/admin/services/${SOME_ID}`,
      form: { price: '0' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/customers.tsx': [
    { what: 'a visitor searching', url: '/admin/customers?q=%25', status: 404, says: NOT_FOUND_PAGE },
    ...tamperedCursors('/admin/customers?q=store', TIMED_CURSOR, SERIAL_CURSOR),
  ],
  'routes/admin/customer.tsx': [
    {
      what: 'a customer granting',
      as: 'customer',
      method: 'POST',
      url: `/admin/customers/${SOME_ID}`,
      form: { intent: 'grant' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a customer stopping someone’s automatic renewal',
      as: 'customer',
      method: 'POST',
      url: `/admin/customers/${SOME_ID}`,
      form: { intent: 'mandate-stop', mandateId: SOME_ID, reason: 'mine now' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/complaints.tsx': [
    { what: 'a visitor', url: '/admin/complaints', status: 404, says: NOT_FOUND_PAGE },
    {
      what: 'a customer entering a SCORES complaint',
      as: 'customer',
      method: 'POST',
      url: '/admin/complaints',
      form: { source: 'SEBI_SCORES', sourceReference: 'X1', category: 'OTHER', receivedOn: '2026-11-01', text: 'x' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/complaint.tsx': [
    {
      what: 'a customer answering a complaint',
      as: 'customer',
      method: 'POST',
      url: `/admin/complaints/${SOME_ID}`,
      form: { status: 'RESOLVED', message: 'Closed by me', version: '0' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/complaint-attachment.ts': [
    {
      what: 'a customer opening an attachment',
      as: 'customer',
      url: `/admin/complaints/${SOME_ID}/attachment`,
      status: 404,
    },
  ],
  'routes/admin/complaint-board.tsx': [
    {
      what: 'a customer publishing',
      as: 'customer',
      method: 'POST',
      url: '/admin/complaint-board',
      form: { intent: 'publish' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/complaint-board-month.tsx': [
    {
      what: 'a customer entering figures',
      as: 'customer',
      method: 'POST',
      url: '/admin/complaint-board/2026-04',
      form: { received: '0' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/export.tsx': [{ what: 'a visitor', url: '/admin/export', status: 404, says: NOT_FOUND_PAGE }],
  'routes/admin/audit.tsx': [
    { what: 'a visitor', method: 'DELETE', url: '/admin/audit', status: 404, says: NOT_FOUND_PAGE },
    ...tamperedCursors('/admin/audit', SERIAL_CURSOR, TIMED_CURSOR),
  ],
  'routes/admin/export-csv.ts': [
    {
      what: 'a customer downloading every payment',
      as: 'customer',
      url: '/admin/export.csv?from=2026-04-01&to=2026-04-30',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/customer-end-subscription.ts': [
    {
      what: 'a customer ending someone’s subscription',
      as: 'customer',
      method: 'POST',
      url: `/admin/customers/${SOME_ID}/end-subscription`,
      form: { serviceId: SOME_ID, reason: 'because' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/refunds.tsx': [
    {
      what: 'a customer retrying a refund',
      as: 'customer',
      method: 'POST',
      url: '/admin/refunds',
      form: { intent: 'retry', refundId: SOME_ID },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    ...['DUE', 'FAILED', 'PENDING', 'PROCESSED'].flatMap((status) =>
      tamperedCursors(`/admin/refunds?status=${status}`, TIMED_CURSOR, SERIAL_CURSOR),
    ),
  ],
  'routes/admin/research.tsx': [
    { what: 'a customer listing research', as: 'customer', url: '/admin/research', status: 404, says: NOT_FOUND_PAGE },
    {
      what: 'a malformed filter: named and left out, not a crash',
      as: 'admin',
      url: `/admin/research?serviceId=${encodeURIComponent("1' OR '1'='1")}&kind=${encodeURIComponent(NUL)}&status=LOST&from=2026-02-31&to=x`,
      status: 200,
      says: 'Not understood and left out of the filter: service, kind, status, from date, to date.',
    },
    ...tamperedCursors('/admin/research', TIMED_CURSOR, SERIAL_CURSOR),
    ...tamperedCursors('/admin/research?status=DRAFT&from=2026-01-01', TIMED_CURSOR, SERIAL_CURSOR),
  ],
  'routes/admin/research-new.tsx': [
    {
      what: 'a customer writing a report',
      as: 'customer',
      method: 'POST',
      url: '/admin/research/new',
      form: { title: 'Buy now', body: 'Text', serviceIds: SOME_ID },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'NUL in a report’s title',
      as: 'admin',
      method: 'POST',
      url: '/admin/research/new',
      form: { title: `A${NUL}`, body: 'Text', serviceIds: SOME_ID },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'a 60 KB body',
      as: 'admin',
      method: 'POST',
      url: '/admin/research/new',
      form: { title: 'Long', body: 'x'.repeat(60 * 1024) },
      status: 400,
      says: 'The body can be at most 50,000 characters.',
    },
    {
      what: 'a call without a rationale',
      as: 'admin',
      method: 'POST',
      url: '/admin/research/new?kind=call',
      form: { ...HOSTILE_CALL, body: '' },
      status: 400,
      says: 'Enter the rationale.',
    },
    {
      what: 'a buy call with its stop-loss above the entry',
      as: 'admin',
      method: 'POST',
      url: '/admin/research/new?kind=call',
      form: { ...HOSTILE_CALL, stopLoss: '1550' },
      status: 400,
      says: 'For a buy call the stop-loss must be below the entry (Rs. 1,500).',
    },
    {
      what: 'a call whose ISIN is a script',
      as: 'admin',
      method: 'POST',
      url: '/admin/research/new?kind=call',
      form: { ...HOSTILE_CALL, isin: '<script>alert(1)</script>' },
      status: 400,
      says: 'Enter the ISIN as 12 letters and digits, like INE040A01034.',
    },
  ],
  'routes/admin/research-follow-up.tsx': [
    {
      what: 'a customer writing a correction',
      as: 'customer',
      method: 'POST',
      url: `/admin/research/${SOME_ID}/follow-up`,
      form: { kind: 'CORRECTION', body: 'Text' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'an admin correcting no item',
      as: 'admin',
      method: 'POST',
      url: `/admin/research/${SOME_ID}/follow-up`,
      form: { kind: 'CORRECTION', body: 'Text' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'an id that is not one',
      as: 'admin',
      url: '/admin/research/..%2Fadmin/follow-up',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/research-item.tsx': [
    {
      what: 'a customer publishing a report',
      as: 'customer',
      method: 'POST',
      url: `/admin/research/${SOME_ID}`,
      form: { intent: 'publish' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'an admin publishing no report',
      as: 'admin',
      method: 'POST',
      url: `/admin/research/${SOME_ID}`,
      form: { intent: 'publish' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    ...(
      [
        { intent: 'schedule', publishAt: '2099-01-01T09:00' },
        { intent: 'cancel-schedule' },
        { intent: 'retry' },
      ] as Record<string, string>[]
    ).flatMap((form): HostileCase[] => [
      {
        what: `a customer posting ${form.intent} on a report`,
        as: 'customer',
        method: 'POST',
        url: `/admin/research/${SOME_ID}`,
        form,
        status: 404,
        says: NOT_FOUND_PAGE,
      },
      {
        what: `an admin posting ${form.intent} on no report`,
        as: 'admin',
        method: 'POST',
        url: `/admin/research/${SOME_ID}`,
        form,
        status: 404,
        says: NOT_FOUND_PAGE,
      },
    ]),
  ],
  'routes/admin/research-item-attachment.ts': [
    {
      what: 'a customer downloading a draft’s attachment',
      as: 'customer',
      url: `/admin/research/${SOME_ID}/attachment`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/research-item-audit-pack.ts': [
    {
      what: 'a customer downloading an item’s audit pack',
      as: 'customer',
      url: `/admin/research/${SOME_ID}/audit-pack`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'an admin asking for the pack of no item',
      as: 'admin',
      url: `/admin/research/${SOME_ID}/audit-pack`,
      status: 404,
    },
    {
      what: 'an item id that is not one',
      as: 'admin',
      url: '/admin/research/..%2F..%2Fetc/audit-pack',
      status: 404,
    },
  ],
  'routes/admin/research-audit-pack.ts': [
    {
      what: 'a customer downloading every item’s audit pack',
      as: 'customer',
      url: '/admin/research/audit-pack?from=2000-01-01&to=2099-12-31',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a range that ends before it starts',
      as: 'admin',
      url: '/admin/research/audit-pack?from=2026-03-31&to=2025-04-01',
      status: 400,
    },
    {
      what: 'SQL in a date',
      as: 'admin',
      url: `/admin/research/audit-pack?from=${encodeURIComponent("2025-04-01' OR 1=1 --")}&to=2026-03-31`,
      status: 400,
    },
  ],
  'routes/admin/research-track-record.tsx': [
    {
      what: 'a customer reading a service’s track record',
      as: 'customer',
      url: `/admin/research/track-record?service=${SOME_ID}`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'SQL in the service',
      as: 'admin',
      url: `/admin/research/track-record?service=${encodeURIComponent("1' OR '1'='1")}`,
      status: 200,
      says: 'There is no such service: choose one from the list.',
    },
  ],
  'routes/admin/research-track-record-csv.ts': [
    {
      what: 'a customer downloading a service’s track record',
      as: 'customer',
      url: `/admin/research/track-record.csv?service=${SOME_ID}`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a service that is not one',
      as: 'admin',
      url: `/admin/research/track-record.csv?service=${encodeURIComponent(NUL + '<script>')}`,
      status: 400,
      says: 'Which service? Add ?service=',
    },
  ],
  'routes/admin/stop-services.tsx': [
    {
      what: 'a customer stopping every service',
      as: 'customer',
      method: 'POST',
      url: '/admin/stop-services',
      form: { intent: 'confirm', effectiveFrom: '2099-01-01', reason: 'because' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/insights.tsx': [
    {
      what: 'a customer reading the money figures',
      as: 'customer',
      url: '/admin/insights',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'routes/admin/insights-csv.ts': [
    {
      what: 'a customer downloading the money figures',
      as: 'customer',
      url: '/admin/insights.csv?chart=money',
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'SQL in the chart name',
      as: 'admin',
      url: `/admin/insights.csv?chart=${encodeURIComponent("money' OR 1=1 --")}`,
      status: 400,
      says: 'Which chart? Add ?chart= with one of: money',
    },
  ],
  'routes/admin/notices.tsx': [
    {
      what: 'a customer sending a notice to everyone',
      as: 'customer',
      method: 'POST',
      url: '/admin/notices',
      form: {
        intent: 'send',
        audience: 'HELD',
        subject: 'Urgent',
        body: 'Pay the renewal to this account.',
        noticeKey: SOME_ID,
      },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    {
      what: 'a notice over 5,000 characters',
      as: 'admin',
      method: 'POST',
      url: '/admin/notices',
      form: { intent: 'review', audience: 'OPEN', subject: 'Too long', body: 'x'.repeat(5_001) },
      status: 400,
      says: 'At most 5,000 characters',
    },
  ],
  'routes/admin/customer-pan-card.ts': [
    {
      what: 'a customer viewing someone’s PAN card',
      as: 'customer',
      url: `/admin/customers/${SOME_ID}/pan-card`,
      status: 404,
      says: NOT_FOUND_PAGE,
    },
  ],
  'demo/sandbox.pay.ts': [
    {
      what: 'an order that does not exist',
      method: 'POST',
      url: '/dev/sandbox/pay',
      json: { orderId: 'order_none' },
      status: 404,
    },
    {
      what: 'NUL in the order id',
      method: 'POST',
      url: '/dev/sandbox/pay',
      json: { orderId: `order${NUL}` },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'a payment method Razorpay has not',
      method: 'POST',
      url: '/dev/sandbox/pay',
      json: { orderId: 'order_none', method: 'barter' },
      status: 400,
      says: 'method is one of',
    },
  ],
  'demo/sandbox.checkout.tsx': [
    {
      what: 'a return address on another site (the stand-in must not post signed fields elsewhere)',
      method: 'POST',
      url: '/dev/sandbox/checkout',
      form: {
        order_id: 'order_x',
        amount: '100',
        callback_url: 'https://evil.example/steal',
        cancel_url: 'https://evil.example/',
      },
      status: 400,
      says: 'Send order_id, and callback_url and cancel_url on this store.',
    },
  ],
  'demo/sandbox.authorise.tsx': [
    {
      what: 'a return address on another site',
      url: '/dev/sandbox/authorise?subscription_id=sub_x&return_to=%2F%2Fevil.example',
      status: 400,
    },
    { what: 'no subscription', url: '/dev/sandbox/authorise', status: 400 },
    { what: 'a subscription that does not exist', url: '/dev/sandbox/authorise?subscription_id=sub_none', status: 404 },
    {
      what: 'authorising a subscription that does not exist',
      method: 'POST',
      url: '/dev/sandbox/authorise?subscription_id=sub_none',
      form: { step: 'authorise' },
      status: 404,
    },
  ],
  'demo/sandbox.checkout-script.ts': [
    { what: 'a write to a script', method: 'POST', url: '/dev/sandbox/checkout.js', form: { x: '1' }, status: 405 },
  ],
  'routes/webhooks.razorpay.ts': [
    {
      what: 'a forged signature',
      method: 'POST',
      url: '/webhooks/razorpay',
      body: '{"event":"payment.captured"}',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': '0'.repeat(64) },
      status: 400,
      says: 'invalid-signature',
    },
    {
      what: 'no signature',
      method: 'POST',
      url: '/webhooks/razorpay',
      body: '{"event":"payment.captured"}',
      headers: { 'content-type': 'application/json' },
      status: 400,
    },
    {
      what: 'another site’s Origin',
      method: 'POST',
      url: '/webhooks/razorpay',
      body: '{}',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      status: 403,
    },
  ],
  'routes/api.v1/otp.request.ts': [
    {
      what: 'NUL in the number',
      method: 'POST',
      url: '/api/v1/otp/request',
      json: { number: `+91987654${NUL}321` },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'an Indian number that cannot be a mobile',
      method: 'POST',
      url: '/api/v1/otp/request',
      json: { number: '+91 22 1234 5678' },
      status: 400,
      says: 'Indian mobile numbers start with 6, 7, 8 or 9',
    },
    {
      what: 'a body that is not UTF-8',
      method: 'POST',
      url: '/api/v1/otp/request',
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      headers: { 'content-type': 'application/json' },
      status: 400,
    },
    {
      what: 'no XSRF header',
      method: 'POST',
      url: '/api/v1/otp/request',
      json: { number: '+919876543210' },
      headers: { 'x-xsrf-token': '' },
      status: 403,
    },
  ],
  'routes/api.v1/otp.verify.ts': [
    {
      what: 'a code for a number with none waiting',
      method: 'POST',
      url: '/api/v1/otp/verify',
      json: { number: '+919000000001', otp: '123456' },
      status: 400,
    },
    {
      what: 'a code that is not six digits',
      method: 'POST',
      url: '/api/v1/otp/verify',
      json: { number: '+919000000001', otp: '12345x' },
      status: 400,
    },
  ],
  'routes/api.v1/users.logout.ts': [{ what: 'a GET', url: '/api/v1/users/logout', status: 405 }],
  'routes/api.v1/users.refresh-token.ts': [
    { what: 'a visitor', method: 'POST', url: '/api/v1/users/refresh-token', status: 401 },
  ],
  'routes/api.v1/users.current-user.ts': [
    {
      what: 'a forged session cookie',
      url: '/api/v1/users/current-user',
      headers: { cookie: 'session=forged.value' },
      status: 401,
    },
  ],
  'routes/api.v1/users.set-details.ts': [
    {
      what: 'NUL in the e-mail',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-details',
      json: { name: 'asha rao', email: `a${NUL}@x.in`, dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'an e-mail of 255 characters',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-details',
      json: { name: 'asha rao', email: `${'a'.repeat(244)}@example.in`, dob: '2001-05-17', pan: 'ABCPE1234F' },
      status: 400,
      says: '254',
    },
    {
      what: 'an invalid PAN',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-details',
      json: { name: 'asha rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABC' },
      status: 400,
    },
    {
      what: 'a customer under 18',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-details',
      json: { name: 'asha rao', email: 'asha@example.in', dob: '2020-01-01', pan: 'ABCPE1234F' },
      status: 400,
    },
    {
      what: 'new KYC details for a complete profile',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/set-details',
      json: { name: 'someone else', email: 'asha@example.in', dob: '2001-05-17', pan: 'BCDPF2345G' },
      status: 409,
      says: 'correction request',
    },
  ],
  'routes/api.v1/users.request-correction.ts': [
    {
      what: 'a visitor',
      method: 'POST',
      url: '/api/v1/users/request-correction',
      json: { name: 'asha rao', reason: 'typo' },
      status: 401,
    },
    {
      what: 'NUL in the new name',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/request-correction',
      json: { name: `asha${NUL}rao`, reason: 'typo' },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
    {
      what: 'a PAN that is not an individual’s',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/request-correction',
      json: { pan: 'ABCDE1234F', reason: 'typo' },
      status: 400,
    },
    {
      what: 'a profile that is not complete',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/request-correction',
      json: { name: 'asha r rao', reason: 'typo' },
      status: 409,
      says: 'profile is not complete',
    },
  ],
  'routes/api.v1/users.set-pancard.ts': [
    {
      what: 'an image before any date of birth is saved',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-pancard',
      body: multipartFile('pancard', 'pan.png', 'image/png', PNG_1X1),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 409,
      says: 'Save your details first',
    },
    {
      what: 'a file that is not an image',
      as: 'started',
      method: 'POST',
      url: '/api/v1/users/set-pancard',
      body: multipartFile('pancard', 'pan.png', 'image/png', Buffer.from('%PDF-1.7')),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 415,
    },
    {
      what: 'no file',
      as: 'started',
      method: 'POST',
      url: '/api/v1/users/set-pancard',
      body: multipartFile('other', 'x.txt', 'text/plain', Buffer.from('x')),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 400,
    },
    {
      // The probe replaced a complete profile's card (API 200, no audit entry): it goes through a correction request.
      what: "a new card for a complete profile's",
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/set-pancard',
      body: multipartFile('pancard', 'pan.png', 'image/png', PNG_1X1),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      status: 409,
      says: 'changes only through a correction request',
    },
  ],
  'routes/api.v1/users.set-agreement.ts': [
    { what: 'a visitor', method: 'POST', url: '/api/v1/users/set-agreement', status: 401 },
    {
      what: 'an agreement before any date of birth is saved',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/users/set-agreement',
      status: 409,
      says: 'Save your details first',
    },
    {
      what: "the original clients' body-less call",
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/set-agreement',
      status: 409,
      says: /Not acknowledged: Terms and Conditions \(agreement-[0-9a-f]{12}\).*Investor Charter \(charter-[0-9a-f]{12}\)/,
    },
    {
      what: 'a document that does not exist',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/set-agreement',
      json: { documents: { COOKIES: 'cookies-000000000000' } },
      status: 400,
    },
    {
      what: 'a stale investor charter',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/users/set-agreement',
      json: { documents: { INVESTOR_CHARTER: 'charter-000000000000' } },
      status: 409,
      says: 'Acknowledge every onboarding document at its current version.',
    },
  ],
  'routes/api.v1/agreement.ts': [{ what: 'a write', method: 'POST', url: '/api/v1/agreement', json: {}, status: 405 }],
  'routes/api.v1/services.get-available-services.ts': [
    { what: 'a write', method: 'DELETE', url: '/api/v1/services/get-available-services', status: 405 },
  ],
  'routes/api.v1/services.get-specific-services.ts': [
    {
      what: 'ids that are not a list',
      method: 'POST',
      url: '/api/v1/services/get-specific-services',
      json: { services: 'all' },
      status: 400,
    },
    {
      what: 'NUL in an id',
      method: 'POST',
      url: '/api/v1/services/get-specific-services',
      json: { services: [`x${NUL}`] },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
  ],
  'routes/api.v1/payments.create-order.ts': [
    {
      what: 'an incomplete profile',
      as: 'customer',
      method: 'POST',
      url: '/api/v1/payments/create-order',
      json: checkoutBody([], 1),
      status: 403,
    },
    {
      what: 'a tampered cart (a service that does not exist at price 0)',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/create-order',
      json: { ...checkoutBody([], 1), notes: { cart: TAMPERED_CART } },
      status: 409,
    },
  ],
  'routes/api.v1/payments.verify-payment.ts': [
    {
      what: 'a forged signature for a foreign order',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/verify-payment',
      json: {
        razorpayResponse: {
          razorpay_order_id: 'order_x',
          razorpay_payment_id: 'pay_x',
          razorpay_signature: '0'.repeat(64),
        },
      },
      status: 400,
      says: 'Error verifying payment',
    },
  ],
  'routes/api.v1/payments.re-verify-payment.ts': [
    {
      what: 'NUL in the order id',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/re-verify-payment',
      json: { razorpayResponse: { razorpay_order_id: `o${NUL}`, razorpay_payment_id: 'p', razorpay_signature: 's' } },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
  ],
  'routes/api.v1/payments.failed-payment.ts': [
    {
      what: 'no order id',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/failed-payment',
      json: { response: {} },
      status: 400,
    },
  ],
  'routes/api.v1/payments.cancel-payment.ts': [
    {
      what: 'someone else’s order',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/cancel-payment',
      json: { orderId: 'order_someone_else' },
      status: 200,
      says: '"cancelled":false',
    },
  ],
  'routes/api.v1/payments.manual-payment.ts': [
    {
      what: 'a tampered amount',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/payments/manual-payment',
      json: { ...checkoutBody([], 1), notes: { cart: '[]' } },
      status: 400,
    },
  ],
  'routes/api.v1/payments.pending-payments.ts': [
    { what: 'a visitor', url: '/api/v1/payments/pending-payments', status: 401 },
  ],
  'routes/api.v1/subscriptions.get-active-subscriptions.ts': [
    { what: 'a visitor', url: '/api/v1/subscriptions/get-active-subscriptions', status: 401 },
  ],
  'routes/api.v1/mandates.ts': [
    { what: 'a visitor', url: '/api/v1/mandates', status: 401 },
    {
      what: 'a service that is not an id',
      as: 'complete',
      url: `/api/v1/mandates?service=${encodeURIComponent("1' OR '1'='1")}`,
      status: 400,
      says: 'service is the id of a service.',
    },
    {
      what: 'a service that does not exist: no offer, a refusal',
      as: 'complete',
      url: `/api/v1/mandates?service=${SOME_ID}`,
      status: 200,
      says: '"refusal":"There is no such service."',
    },
  ],
  'routes/api.v1/mandates.create.ts': [
    { what: 'a visitor', method: 'POST', url: '/api/v1/mandates/create', json: {}, status: 401 },
    {
      what: 'no consent hash',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/mandates/create',
      json: { service: SOME_ID, consentVersion: 'autopay-aaaaaaaaaaaa' },
      status: 400,
      says: 'consentSha256',
    },
    {
      what: 'a version of another text than the hash',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/mandates/create',
      json: { service: SOME_ID, consentVersion: 'autopay-bbbbbbbbbbbb', consentSha256: 'a'.repeat(64) },
      status: 400,
      says: 'are not of the same consent text',
    },
    {
      what: 'a service that does not exist',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/mandates/create',
      json: { service: SOME_ID, consentVersion: 'autopay-aaaaaaaaaaaa', consentSha256: 'a'.repeat(64) },
      status: 404,
      says: 'There is no such service.',
    },
  ],
  'routes/api.v1/mandates.cancel.ts': [
    { what: 'a visitor', method: 'POST', url: '/api/v1/mandates/cancel', json: { mandate: SOME_ID }, status: 401 },
    {
      what: 'a mandate that is not theirs (or none)',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/mandates/cancel',
      json: { mandate: SOME_ID },
      status: 404,
      says: 'There is no such mandate.',
    },
    {
      what: 'NUL in the mandate id',
      as: 'complete',
      method: 'POST',
      url: '/api/v1/mandates/cancel',
      json: { mandate: `x${NUL}` },
      status: 400,
      says: CONTROL_CHARACTERS,
    },
  ],
  'routes/api.v1/research.ts': [
    { what: 'a visitor', url: '/api/v1/research', status: 401 },
    {
      what: 'a service that is not one of theirs',
      as: 'complete',
      url: `/api/v1/research?service=${SOME_ID}`,
      status: 400,
      says: UNKNOWN_SERVICE_FILTER_MESSAGE,
    },
    {
      what: 'a cursor the list did not write',
      as: 'complete',
      url: `/api/v1/research?before=${NUL}1_${SOME_ID}`,
      status: 400,
      says: INVALID_CURSOR_MESSAGE,
    },
  ],
  'routes/api.v1/research.item.ts': [
    { what: 'a visitor', url: `/api/v1/research/${SOME_ID}`, status: 401 },
    { what: 'an item not theirs', as: 'complete', url: `/api/v1/research/${SOME_ID}`, status: 404 },
    { what: 'an id that is not one', as: 'complete', url: '/api/v1/research/%27%20OR%201=1', status: 404 },
  ],
  'routes/api.v1/not-found.ts': [
    { what: 'an unknown call', method: 'POST', url: '/api/v1/payments/refund-everything', json: {}, status: 404 },
  ],
  'routes/investor-charter.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/investor-charter', form: { x: '1' }, status: 405 },
  ],
  'routes/performance-report.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/performance-report', form: { x: '1' }, status: 405 },
  ],
  'routes/complaint-board.tsx': [
    { what: 'a write to the board', method: 'POST', url: '/complaint-board', form: { month: '2026-04' }, status: 405 },
  ],
  'routes/disclosure.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/disclosure', form: { x: '1' }, status: 405 },
  ],
  'routes/mitc.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/mitc', form: { x: '1' }, status: 405 },
  ],
  'routes/terms-and-conditions.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/terms-and-conditions', form: { x: '1' }, status: 405 },
  ],
  'routes/terms-and-conditions.changes.tsx': [
    {
      what: 'a write to a static page',
      method: 'POST',
      url: '/terms-and-conditions/changes',
      form: { x: '1' },
      status: 405,
    },
  ],
  'routes/consents.accept.tsx': [
    { what: 'a visitor is sent to sign in', url: '/consents/accept', status: 302, location: /^\/auth/ },
    {
      what: 'a customer with nothing to give is sent on, never off-site, and nothing is recorded',
      as: 'complete',
      method: 'POST',
      url: '/consents/accept?redirectTo=https://evil.example',
      form: { redirectTo: 'https://evil.example', 'acknowledge-INVESTOR_CHARTER': 'charter-000000000000' },
      status: 302,
      location: '/pay',
    },
  ],
  'routes/terms.accept.tsx': [
    { what: 'a visitor is sent to sign in', url: '/terms/accept', status: 302, location: /^\/auth/ },
    {
      what: 'a version that is not the current one',
      as: 'complete',
      method: 'POST',
      url: '/terms/accept',
      form: { 'acknowledge-TERMS': 'agreement-000000000000' },
      status: 409,
      says: 'updated while you were reading them: Terms and Conditions',
    },
    {
      what: 'no box ticked',
      as: 'complete',
      method: 'POST',
      url: '/terms/accept?redirectTo=https://evil.example',
      form: { redirectTo: 'https://evil.example' },
      status: 400,
      says: 'Tick each box to continue',
    },
    {
      what: 'a NUL in the version is not the current one: nothing recorded',
      as: 'complete',
      method: 'POST',
      url: '/terms/accept',
      form: { 'acknowledge-TERMS': `agreement-${NUL}` },
      status: 409,
      says: 'updated while you were reading them',
    },
  ],
  'routes/disclaimer.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/disclaimer', form: { x: '1' }, status: 405 },
  ],
  'routes/grievance-redressal.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/grievance-redressal', form: { x: '1' }, status: 405 },
  ],
  'routes/privacy-policy.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/privacy-policy', form: { x: '1' }, status: 405 },
  ],
  'routes/refund-policy.tsx': [
    { what: 'a write to a static page', method: 'POST', url: '/refund-policy', form: { x: '1' }, status: 405 },
  ],
  'routes/not-found.tsx': [
    { what: 'an unknown page', url: '/wp-login.php', status: 404, says: NOT_FOUND_PAGE },
    {
      what: 'a write to an unknown page',
      method: 'POST',
      url: '/wp-login.php',
      form: { log: 'admin' },
      status: 404,
      says: NOT_FOUND_PAGE,
    },
    { what: 'a path with NUL', url: '/%00', status: 404 },
  ],
}

type RouteEntry = { file: string; children?: RouteEntry[] }
const routeFiles = (entries: RouteEntry[]): string[] =>
  entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])])

test('every route of app/routes.ts has its row in the battery, and every row a route', () => {
  const files = [...new Set(routeFiles(routes as RouteEntry[]))].sort()
  expect(Object.keys(BATTERY).sort()).toEqual(files)
  for (const [file, cases] of Object.entries(BATTERY)) expect(cases.length, file).toBeGreaterThan(0)
})

/** What a customer owns, read straight from the database: it must be the same after each hostile request. */
async function customerRecord(phone: string) {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `SELECT to_jsonb(u) - 'updated_at' AS user,
              (SELECT coalesce(jsonb_agg(to_jsonb(p) - 'updated_at' ORDER BY p.id), '[]') FROM payments p WHERE p.user_id = u.id) AS payments,
              (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.id), '[]') FROM subscriptions s WHERE s.user_id = u.id) AS subscriptions
         FROM users u WHERE u.phone = $1`,
      [phone],
    )
    return rows[0]
  })
}

async function personaFor(
  persona: Persona,
  playwright: Parameters<Parameters<typeof test>[2]>[0]['playwright'],
  baseURL: string,
) {
  const { context, xsrf, phone } = await apiClient(
    playwright.request,
    baseURL,
    persona === 'visitor'
      ? undefined
      : persona === 'admin'
        ? { role: 'ADMIN' }
        : persona === 'started'
          ? { details: { ...PROFILE_DETAILS, pan: uniquePan() } }
          : { completeProfile: persona === 'complete' },
  )
  if (persona === 'complete') {
    // A cart, so that /pay reaches its action instead of sending the customer back to /services.
    const [service] = await availableServices(context)
    expect(
      (await context.post('/services', { form: { intent: 'add', serviceId: service!._id }, maxRedirects: 0 })).status(),
    ).toBeLessThan(400)
  }
  return { context, xsrf, phone }
}

async function send(context: APIRequestContext, xsrf: Record<string, string>, hostile: HostileCase) {
  return context.fetch(hostile.url, {
    method: hostile.method ?? 'GET',
    headers: { ...xsrf, ...hostile.headers },
    ...(hostile.form ? { form: hostile.form } : {}),
    ...(hostile.json !== undefined ? { data: hostile.json } : {}),
    ...(hostile.body !== undefined ? { data: hostile.body } : {}),
    maxRedirects: 0,
  })
}

for (const [file, cases] of Object.entries(BATTERY)) {
  test(`${file} refuses what it must and changes nothing`, async ({ playwright, baseURL }) => {
    const personas = new Map<Persona, Awaited<ReturnType<typeof personaFor>>>()
    for (const hostile of cases) {
      const as = hostile.as ?? 'visitor'
      if (!personas.has(as)) personas.set(as, await personaFor(as, playwright, baseURL!))
      const { context, xsrf, phone } = personas.get(as)!
      const before = phone ? await customerRecord(phone) : null
      const response = await send(context, xsrf, hostile)
      const label = `${hostile.method ?? 'GET'} ${hostile.url.slice(0, 80)}: ${hostile.what}`
      const text = await response.text()
      expect(response.status(), `${label} (answered ${response.headers().location ?? text.slice(0, 200)})`).toBe(
        hostile.status,
      )
      if (hostile.says)
        expect(text, label).toMatch(
          typeof hostile.says === 'string' ? new RegExp(escapeRegExp(hostile.says)) : hostile.says,
        )
      if (hostile.location)
        expect(response.headers().location, label).toMatch(
          typeof hostile.location === 'string' ? new RegExp(`^${escapeRegExp(hostile.location)}$`) : hostile.location,
        )
      expect(text, `${label}: no stack trace or database error in the answer`).not.toMatch(
        /at [\w$.]+ \(|PrismaClient|invalid byte sequence|\bstack\b/,
      )
      if (phone) expect(await customerRecord(phone), `${label}: the customer's data`).toEqual(before)
    }
    for (const { context } of personas.values()) await context.dispose()
  })
}

test('a script stored in a failure reason is shown as text on the admin payments page', async ({
  playwright,
  baseURL,
}) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const created = await json(
    await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }),
  )
  const orderId = created.data.data.order.id as string
  const script = '<script>window.hostile=1</script><img src=x onerror="window.hostile=2">'
  const failed = await api.post('/api/v1/payments/failed-payment', {
    headers: xsrf,
    data: { response: { error: { description: script, metadata: { order_id: orderId } } } },
  })
  expect(failed.status()).toBe(200)

  const { context: admin } = await apiClient(playwright.request, baseURL!, { role: 'ADMIN' })
  const page = await (await admin.get('/admin/payments?method=GATEWAY&status=FAILED')).text()
  expect(page).toContain('&lt;script&gt;window.hostile=1&lt;/script&gt;')
  expect(page).not.toContain(script)
  await admin.dispose()
  await api.dispose()
})

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Above every cap but the PAN card upload's own (10 MiB): 64 KiB for forms, webhooks and the JSON
 * API. Chunked bodies without a Content-Length, counted as they arrive, are refused the same way:
 * tests/integration/request-body-limit-http.test.ts sends 200 MB of them.
 */
const OVERSIZED_BODY = 'x='.padEnd(100 * 1024, 'x')
const OWN_UPLOAD_CAP = new Set(['/api/v1/users/set-pancard'])

test('every route refuses an oversized body with 413 and Connection: close, the API in JSON', async ({ request }) => {
  const paths = [
    ...new Set(
      Object.values(BATTERY).flatMap((cases) => cases.map((hostile) => new URL(hostile.url, 'http://store').pathname)),
    ),
  ]
  for (const path of paths.filter((path) => !OWN_UPLOAD_CAP.has(path))) {
    const response = await request.post(path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: OVERSIZED_BODY,
      maxRedirects: 0,
    })
    expect(response.status(), path).toBe(413)
    expect(response.headers().connection, path).toBe('close')
    if (path.startsWith('/api/'))
      expect(await response.json(), path).toEqual({ message: expect.stringMatching(/too large/i) })
  }
})

/** The per-address share of uploads under way (UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX in app/server/http/upload-slots.server.ts). */
const UPLOADS_PER_ADDRESS = 2
const TAIL = Buffer.from('\r\n--held--\r\n')

/** The status of a whole small PAN card upload sent like the held ones (same client address). */
function uploadStatus(baseURL: string, headers: Record<string, string>) {
  const { socket } = holdPanCardUpload(baseURL, headers, { whole: true })
  let answer = ''
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
  return new Promise<{ status: number; answer: string }>((resolve) =>
    socket.once('close', () => resolve({ status: Number(answer.split(' ')[1]), answer })),
  )
}

/**
 * A 10 MB PAN card upload that sends its first bytes and holds the rest back (`whole`: a small one
 * sent whole); `answered` once the store answers it. Raw, so that it keeps the client address given.
 */
function holdPanCardUpload(baseURL: string, headers: Record<string, string>, { whole = false } = {}) {
  const { hostname, port } = new URL(baseURL)
  const head = Buffer.from(
    `--held\r\nContent-Disposition: form-data; name="pancard"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`,
  )
  const socket = net.connect({ host: hostname, port: Number(port) })
  socket.on('error', () => {})
  socket.write(
    [
      'POST /api/v1/users/set-pancard HTTP/1.1',
      `Host: ${hostname}:${port}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'Content-Type: multipart/form-data; boundary=held',
      `Content-Length: ${whole ? head.byteLength + PNG_1X1.byteLength + TAIL.byteLength : head.byteLength + 10_000_000}`,
      '',
      '',
    ].join('\r\n'),
  )
  socket.write(Buffer.concat([head, PNG_1X1, whole ? TAIL : Buffer.alloc(0)]))
  const held = { socket, answered: false }
  socket.once('data', () => (held.answered = true))
  return held
}

test('uploads held open beyond a client address’s share are refused with 503 and Retry-After, unread', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, {
    role: 'CUSTOMER',
    details: { ...PROFILE_DETAILS, pan: uniquePan() },
  })
  const cookie = (await api.storageState()).cookies.map(({ name, value }) => `${name}=${value}`).join('; ')
  const address = { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` }
  const hold = () => holdPanCardUpload(baseURL!, { ...xsrf, ...address, Cookie: cookie })
  const held = Array.from({ length: UPLOADS_PER_ADDRESS }, hold)
  try {
    // Once the held uploads have their slots, a whole small upload from that address is turned away.
    // (One of ours that came in after such a small upload may have been turned away itself: it is sent again.)
    let refused = { status: 0, answer: '' }
    await expect
      .poll(
        async () => {
          for (const [index, upload] of held.entries()) {
            if (!upload.answered) continue
            upload.socket.destroy()
            held[index] = hold()
          }
          refused = await uploadStatus(baseURL!, { ...xsrf, ...address, Cookie: cookie, Connection: 'close' })
          return refused.status
        },
        { timeout: 30_000 },
      )
      .toBe(503)
    expect(refused.answer).toMatch(/^Retry-After: 10\r$/im)
    expect(refused.answer).toContain('{"message":"Too many uploads are under way')
  } finally {
    for (const upload of held) upload.socket.destroy()
  }
  // Their clients gone, the slots come back.
  await expect
    .poll(
      async () => (await uploadStatus(baseURL!, { ...xsrf, ...address, Cookie: cookie, Connection: 'close' })).status,
      { timeout: 30_000 },
    )
    .toBe(200)
  await api.dispose()
})

// The customer pages Lighthouse measures (docs/testing.md, Benchmark): sign-in, the home page and the service list,
// each step of the profile wizard, /pay and /subscriptions, and the regulatory pages. Signed-in pages get a customer of
// their own in the state the page needs, made in the store's database by the functions the sign-in, the profile wizard,
// the cart and the admin's confirmation of a bank transfer call (as tests/support/sessions.ts does for the end-to-end
// tests), with a session cookie as a sign-in makes it.
import { randomInt } from 'node:crypto'
import { BROWSER_USER_AGENT } from './browser'
import type { LighthousePage } from './lighthouse'
import { benchDatabaseUrl, BENCH_PG_DIR } from './servers'
import { REGULATORY_PATHS } from '../tests/support/public-pages'
import { ASHA_RAO, PNG_1X1, uniqueMobile, uniquePan } from '../tests/support/sample-customer'

/** Services in the cart of /pay and bought for /subscriptions. */
const SERVICES_BOUGHT = 2

/** The store's server modules, loaded with its settings: demo mode, the bench's data folder and database. */
export async function storeFunctions() {
  process.env.DEMO_MODE = '1'
  process.env.EMBEDDED_PG_DIR = BENCH_PG_DIR
  process.env.DATABASE_URL ??= benchDatabaseUrl()
  const [db, session, profile, signing, agreement, business, consent, services, cart, claims, schema, received] =
    await Promise.all([
      import('../app/server/db.server'),
      import('../app/server/session.server'),
      import('../app/server/account/profile.server'),
      import('../app/server/account/agreement.server'),
      import('../app/server/account/agreement-document.server'),
      import('../app/server/business.server'),
      import('../app/domain/consent'),
      import('../app/server/catalog/services.server'),
      import('../app/server/payments/cart.server'),
      import('../app/server/payments/manual-claims.server'),
      import('../app/domain/profile'),
      import('../app/server/http/received-file.server'),
    ])
  return { db, session, profile, signing, agreement, business, consent, services, cart, claims, schema, received }
}

type StoreFunctions = Awaited<ReturnType<typeof storeFunctions>>
type WizardStep = 'details' | 'pan-card' | 'agreement' | 'complete'

/** A new customer who has done the wizard's steps before `step`; their session cookie's name=value. */
export async function customerAt(app: StoreFunctions, step: WizardStep): Promise<{ userId: string; cookie: string }> {
  const user = await app.db.prisma.user.create({
    data: { phone: `+91${uniqueMobile()}` },
    select: { id: true, panCardKey: true },
  })
  if (step !== 'details') {
    const details = app.schema.profileDetailsSchema(new Date()).parse({ ...ASHA_RAO, pan: uniquePan() })
    const saved = await app.profile.saveProfileDetails(user.id, details)
    if (!saved.ok) throw new Error(`a bench customer's details were refused: ${saved.message}`)
  }
  if (step === 'agreement' || step === 'complete') {
    await app.profile.savePanCard(user, {
      ok: true,
      file: await app.received.receivedFileOf(PNG_1X1),
      contentType: 'image/png',
      extension: 'png',
      size: PNG_1X1.length,
      fields: new FormData(),
    })
  }
  if (step === 'complete') {
    const documents = app.agreement.currentConsentDocuments(app.business.businessDetails)
    await app.signing.agreementSigning().sign(
      user.id,
      app.consent.PAGE_ACKNOWLEDGED_KINDS.map((kind) => documents[kind]),
      { ip: '127.0.0.1', userAgent: 'bench/lighthouse-pages.ts', channel: 'PAGE' },
    )
  }
  return { userId: user.id, cookie: (await app.session.createSession(user.id)).split(';')[0]! }
}

/** A page must answer 200 to its customer: a redirect would have Lighthouse measure another page. */
async function assertAnswers200(page: LighthousePage): Promise<void> {
  const headers = { 'User-Agent': BROWSER_USER_AGENT, ...(page.cookie ? { Cookie: page.cookie } : {}) }
  const response = await fetch(page.url, { headers, redirect: 'manual' })
  await response.arrayBuffer()
  if (response.status !== 200)
    throw new Error(
      `${page.name} (${page.url}) answers ${response.status}${response.headers.get('location') ? ` to ${response.headers.get('location')}` : ''}, not 200`,
    )
}

/** Every customer page, signed in where it needs to be, each checked to answer 200. */
export async function customerPages(origin: string): Promise<LighthousePage[]> {
  const app = await storeFunctions()
  const services = (await app.services.getActiveServices()).slice(0, SERVICES_BOUGHT)
  if (services.length < SERVICES_BOUGHT)
    throw new Error(
      `the store has ${services.length} services on sale; /pay and /subscriptions need ${SERVICES_BOUGHT}`,
    )
  const serviceIds = services.map((service) => service.id)

  const [detailsStep, panCardStep, agreementStep, payer, subscriber] = await Promise.all([
    customerAt(app, 'details'),
    customerAt(app, 'pan-card'),
    customerAt(app, 'agreement'),
    customerAt(app, 'complete'),
    customerAt(app, 'complete'),
  ])
  const cart = (await app.cart.serializeCart(serviceIds)).split(';')[0]!
  // Bought by bank transfer and confirmed by the team: the one path to subscriptions.
  const claim = await app.claims.createManualPayment(subscriber.userId, serviceIds, {
    utr: `BENCH${randomInt(0, 1e9)}`,
  })
  await app.claims.confirmManualPayment(claim.paymentId, {
    utr: 'BENCHSTATEMENT1',
    payerName: 'Bench Payer',
    nameMismatchReason: 'Bench data',
  })
  await app.db.prisma.$disconnect()

  const url = (path: string) => `${origin}${path}`
  const pages: LighthousePage[] = [
    { name: '/auth', url: url('/auth') },
    { name: '/, complete customer', url: url('/'), cookie: subscriber.cookie },
    { name: '/services', url: url('/services') },
    { name: '/details step 1, details', url: url('/details'), cookie: detailsStep.cookie },
    { name: '/details step 2, PAN card', url: url('/details'), cookie: panCardStep.cookie },
    { name: '/details step 3, agreement', url: url('/details'), cookie: agreementStep.cookie },
    { name: `/pay, ${SERVICES_BOUGHT} in the cart`, url: url('/pay'), cookie: `${payer.cookie}; ${cart}` },
    { name: `/subscriptions, ${SERVICES_BOUGHT} bought`, url: url('/subscriptions'), cookie: subscriber.cookie },
    ...REGULATORY_PATHS.map((path) => ({ name: path, url: url(path) })),
  ]
  const chosen = pagesChosen(pages, process.env.BENCH_LIGHTHOUSE_PAGES)
  for (const page of chosen) await assertAnswers200(page)
  return chosen
}

/**
 * BENCH_LIGHTHOUSE_PAGES=/details,/terms-and-conditions keeps the pages whose name starts with one of the
 * comma-separated prefixes (every /details step for `/details`): a quicker before/after on a few pages.
 */
export function pagesChosen(pages: LighthousePage[], filter: string | undefined): LighthousePage[] {
  const prefixes = (filter ?? '')
    .split(',')
    .map((prefix) => prefix.trim())
    .filter(Boolean)
  if (prefixes.length === 0) return pages
  const chosen = pages.filter((page) =>
    prefixes.some(
      (prefix) => page.name === prefix || page.name.startsWith(`${prefix} `) || page.name.startsWith(`${prefix},`),
    ),
  )
  if (chosen.length === 0)
    throw new Error(`BENCH_LIGHTHOUSE_PAGES=${filter} matches none of ${pages.map((page) => page.name).join('; ')}`)
  return chosen
}

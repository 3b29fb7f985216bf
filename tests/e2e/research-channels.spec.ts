import { MS_PER_DAY } from '../../app/domain/dates'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { createSignedInUser, expect, test } from './fixtures'
import { gotoHydrated } from './hydration'

// Research channels (docs/research.md, "Channels"): a customer chooses SMS beside e-mail on /account,
// links Telegram through the fake bot's deep link, and a published item reaches both fakes (the dev
// outbox) as well as the site.

const SERVICE = 'Equity Premium'

// Two people, four pages, the fake bot and two axe audits: more than the usual 60 s on a busy machine.
test.describe.configure({ timeout: 180_000 })

/**
 * The server functions that publish and deliver, run in the test process against the e2e server's
 * database (fixtures.ts sets the environment on the first signed-in user, before these load).
 */
async function publishAndDeliver(title: string) {
  const admin = await createSignedInUser({ role: 'ADMIN' })
  const { createResearchDraft } = await import('../../app/server/research/items.server')
  const { publishResearchItem } = await import('../../app/server/research/publishing.server')
  const { sendDueResearchDeliveries } = await import('../../app/server/research/deliveries.server')
  const serviceId = await withE2eDatabase(async (client) => {
    const found = await client.query<{ id: string }>('SELECT id FROM services WHERE name = $1', [SERVICE])
    return found.rows[0]!.id
  })
  const draft = await createResearchDraft(admin.userId, {
    title,
    body: 'Margins held.\n\n- Deposits grew',
    serviceIds: [serviceId],
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: false,
    aiToolsUsed: false,
    otherConflict: 'None',
  })
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId)
  if (!published.ok) throw new Error(published.reason)
  await sendDueResearchDeliveries()
  return draft.id
}

test('a customer chooses SMS, links Telegram through the fake bot and gets a published item on both', async ({
  customerWithProfile: { page, userId, phone },
  request,
}) => {
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, now() - interval '1 day', $2, 'e2e: research channels', $1 FROM services WHERE name = $3`,
      [userId, new Date(Date.now() + 30 * MS_PER_DAY), SERVICE],
    ),
  )

  await gotoHydrated(page, '/account')
  await expect(page.getByRole('heading', { name: 'How research reaches you' })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /By e-mail/ })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: /By SMS/ })).not.toBeChecked()
  await expect(page.getByRole('checkbox', { name: /On Telegram/ })).toBeDisabled()
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('checkbox', { name: /By SMS/ }).check()
  await page.getByRole('button', { name: 'Save my research channels' }).click()
  await expect(page.getByText('Research now reaches you on this site and by e-mail, SMS.')).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /By SMS/ })).toBeChecked()

  await page.getByRole('button', { name: 'Link Telegram' }).click()
  await expect(page.getByRole('heading', { name: 'How research reaches you', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: /^https:\/\/t\.me\/ResearchStoreDemoBot\?start=/ })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('link', { name: 'press Start in the fake Telegram' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Telegram' })).toBeVisible()
  const chatId = String(700_000_000 + Math.floor(Math.random() * 99_999_999))
  await page.getByLabel('Chat id').fill(chatId)
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(page.getByText(`Chat ${chatId} is linked.`)).toBeVisible()

  await gotoHydrated(page, '/account')
  await expect(page.getByRole('checkbox', { name: /On Telegram/ })).toBeChecked()
  await expect(page.getByText(/^Linked on /)).toBeVisible()

  const title = `Channels ${Date.now()} <script>window.hostile=1</script>`
  const itemId = await publishAndDeliver(title)
  const outbox = async (to: string) => {
    const answer = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`)
    return ((await answer.json()) as { messages: { channel: string; body: string }[] }).messages
  }
  await expect(async () => {
    const telegram = (await outbox(`telegram:${chatId}`)).find((message) => message.body.includes(title))
    expect(telegram?.channel).toBe('telegram')
    expect(telegram?.body).toContain(`/research/${itemId}`)
    const sms = (await outbox(phone)).find((message) => message.body.includes(`/research/${itemId}`))
    expect(sms?.channel).toBe('sms')
  }).toPass()

  // The fake bot's messages are on /dev/outbox too, as text.
  await page.goto(`/dev/outbox?to=${encodeURIComponent(`telegram:${chatId}`)}`)
  await expect(page.getByText(title, { exact: false }).first()).toBeVisible()
  expect(await page.evaluate(() => (window as { hostile?: number }).hostile)).toBeUndefined()

  await gotoHydrated(page, '/account')
  await page.getByRole('button', { name: 'Unlink Telegram' }).click()
  await expect(page.getByText('Telegram is unlinked.')).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /On Telegram/ })).toBeDisabled()
})

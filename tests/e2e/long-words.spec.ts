import { randomInt } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

// Everything a person types wraps on every page that shows it (the stylesheet's rule for typed
// text, app/app.css): an unbroken word as long as each field takes, at most 500 characters, makes
// no page wider than a 360 px phone.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const PHONE = { width: 360, height: 740 }

/** One unbroken word of `length` characters, unique to this run so it can be found again. */
function longWord(length: number): string {
  const tag = `w${randomInt(1e9)}`
  return tag + 'x'.repeat(length - tag.length)
}

/** How wide each path is at 360 px: the document's scroll width, and what sticks out past the right edge. */
async function widths(page: Page, paths: readonly string[]) {
  await page.setViewportSize(PHONE)
  const measured: Record<string, { scrollWidth: number; widest: string }> = {}
  for (const path of paths) {
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(200)
    measured[path] = await page.evaluate(() => {
      let widest = ''
      let right = document.documentElement.clientWidth
      for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect()
        if (box.right > right + 0.5) {
          right = box.right
          widest = `<${element.tagName.toLowerCase()}> ${(element.textContent ?? '').trim().slice(0, 30)}`
        }
      }
      return { scrollWidth: document.documentElement.scrollWidth, widest }
    })
  }
  return measured
}

function tooWide(measured: Awaited<ReturnType<typeof widths>>) {
  return Object.fromEntries(Object.entries(measured).filter(([, width]) => width.scrollWidth > PHONE.width))
}

test('an unbroken word in a complaint, an answer, a complainant name and a service wraps on every page at 360 px', async ({
  customerWithProfile: { page, userId },
  otherAdmin: { page: admin },
}) => {
  // Two people's forms, then ten pages measured.
  test.setTimeout(240_000)
  const complaint = longWord(500)
  const answer = longWord(500)
  const complainantName = longWord(120)
  const sourceReference = longWord(60)
  const enteredText = longWord(500)
  const serviceName = longWord(80)
  const descriptionLine = longWord(200)
  const delivery = longWord(300)

  // The customer files a complaint.
  await page.goto('/complaints/new')
  await page.getByLabel('What is it about?').selectOption({ label: 'Service deficiency' })
  await page.getByLabel('Your complaint').fill(complaint)
  await page.getByRole('button', { name: 'File complaint' }).click()
  const filed = page.getByText(/^Your complaint CMP-\d{4}-\d{6} is filed\./)
  await expect(filed).toBeVisible()
  const reference = /CMP-\d{4}-\d{6}/.exec((await filed.textContent())!)![0]

  // The admin answers it, enters one from SCORES with a long name, and creates a service.
  await admin.goto('/admin/complaints')
  await admin.getByRole('link', { name: reference }).click()
  await expect(admin.getByRole('heading', { level: 1, name: `Complaint ${reference}` })).toBeVisible()
  const answeredPage = new URL(admin.url()).pathname
  await admin.getByLabel('Mark as').selectOption({ label: 'Answered' })
  await admin.getByLabel('Text sent to the complainant').fill(answer)
  await admin.getByRole('button', { name: 'Save step' }).click()
  await expect(admin.getByText('Marked answered.')).toBeVisible()

  await admin.goto('/admin/complaints')
  await admin.getByLabel('Source', { exact: true }).selectOption({ label: 'SEBI SCORES' })
  await admin.getByLabel('Its reference at the source').fill(sourceReference)
  await admin.getByLabel('Category', { exact: true }).selectOption({ label: 'Other' })
  await admin.getByLabel("Complainant's name (optional)").fill(complainantName)
  await admin.getByLabel('The complaint', { exact: true }).fill(enteredText)
  await admin.getByRole('button', { name: 'Enter complaint' }).click()
  await expect(admin.getByText(`SEBI SCORES, reference ${sourceReference}`)).toBeVisible()
  const enteredPage = new URL(admin.url()).pathname

  await admin.goto('/admin/services/new')
  await admin.getByLabel('Name').fill(serviceName)
  await admin.getByLabel('Description').fill(`Weekly ideas\n${descriptionLine}`)
  await admin.getByLabel('Price in rupees').fill('999')
  await admin.getByLabel('Duration in days').fill('30')
  await admin.getByLabel('Risk level').selectOption({ label: 'High' })
  await admin.getByLabel('How and how often the research is delivered').fill(delivery)
  await admin.getByRole('button', { name: 'Create service' }).click()
  await expect(admin.getByText('Service created; it is on sale now.')).toBeVisible()
  const editPage = await admin.getByRole('link', { name: `Edit ${serviceName}` }).getAttribute('href')

  try {
    await page.goto('/complaints')
    await expect(page.getByText(answer)).toBeVisible()
    await page.goto('/services')
    await expect(page.getByText(descriptionLine)).toBeVisible()
    expect(tooWide(await widths(page, ['/complaints', '/services', '/account', '/invoices']))).toEqual({})

    await admin.goto('/admin/complaints')
    await expect(admin.getByText(complainantName)).toBeVisible()
    expect(
      tooWide(
        await widths(admin, [
          '/admin/complaints',
          answeredPage,
          enteredPage,
          '/admin/services',
          editPage!,
          `/admin/customers/${userId}`,
        ]),
      ),
    ).toEqual({})
  } finally {
    // Off sale again, so the other specs' carts never meet it.
    await admin.goto('/admin/services')
    await admin.getByRole('button', { name: `Take off sale: ${serviceName}` }).click()
    await expect(admin.getByRole('article', { name: serviceName }).getByText('Taken off sale.')).toBeVisible()
  }
})

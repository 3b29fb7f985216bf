import { mkdtempSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { canonicalResearchContent } from '~/domain/research'
import { RESEARCH_ATTACHMENT_MAX_BYTES, RESEARCH_ATTACHMENT_MESSAGES } from '~/domain/research-attachment'
import { attachmentEntryName } from '~/domain/research-audit-pack'
import * as adminAttachmentRoute from '~/routes/admin/research-item-attachment'
import * as adminNewRoute from '~/routes/admin/research-new'
import * as attachmentRoute from '~/routes/research.item-attachment'
import * as apiItemRoute from '~/routes/api.v1/research.item'
import { prisma } from '~/server/db.server'
import { researchAuditPack } from '~/server/research/audit-pack.server'
import { verifyAuditPack } from '~/server/research/audit-pack-verify.server'
import { zipEntries, zipStream } from '~/server/research/audit-pack-zip.server'
import { researchEmail, researchTelegram } from '~/server/research/deliveries.server'
import { createResearchDraft, researchItemSelect } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import { eraseExpiredResearch } from '~/server/research/retention.server'
import { getFileStorage } from '~/server/storage.server'
import { receivedFileOf } from '~/server/http/received-file.server'
import { TINY_PNG } from '../support/multipart'
import { createService } from '../support/payment-fixtures'
import { MINIMAL_PDF, pdfOfSize, RENAMED_EXE } from '../support/pdf'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// The default storage reads UPLOADS_DIR when env.server.ts is first imported, before this file runs.
vi.hoisted(() => {
  process.env.UPLOADS_DIR = `${process.env.TMPDIR ?? '/tmp'}/rs-research-attachments-${process.pid}-${Date.now()}`
})

const DAY_MS = 86_400_000
const CONTEXT = {
  business: {
    name: 'Test Research',
    sebiRegistrationNumber: 'INH000000001',
    supportEmail: 'help@store.example',
    supportPhone: '+911234567890',
  },
  origin: 'https://store.example',
}

/** The analyst's form as the browser posts it (multipart, the file last), with `file` as the attachment. */
function researchFormRequest(
  cookie: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
): Request {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('attachment', file ? new File([file.bytes], file.name, { type: file.type }) : new File([], ''))
  return new Request('http://localhost/admin/research/new', {
    method: 'POST',
    headers: { Cookie: cookie.split(';')[0]! },
    body: form,
  })
}

const REPORT_FIELDS = (serviceId: string) => ({
  kind: 'report',
  title: 'Banks: the quarter in full',
  body: '## Summary\nMargins held. The full tables are in the PDF.',
  serviceIds: serviceId,
  financialInterest: 'no',
  ownershipOnePercent: 'no',
  compensationPastYear: 'no',
  aiToolsUsed: 'no',
  otherConflict: 'None',
})

type Replied = {
  init: { status: number; headers?: Record<string, string> }
  data: { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }
}

async function thrown(promise: unknown): Promise<Response> {
  try {
    return (await promise) as Response
  } catch (error) {
    if (error instanceof Response) return error
    if (error && typeof error === 'object' && 'init' in error)
      return new Response(null, (error as { init: ResponseInit }).init)
    throw error
  }
}

async function subscribe(userId: string, serviceId: string, startsAt: Date, endsAt: Date) {
  await prisma.subscription.create({
    data: { userId, serviceId, startsAt, endsAt, grantReason: 'attachment test', grantedById: userId },
  })
}

async function storedFileCount(): Promise<number> {
  const { readdir } = await import('node:fs/promises')
  return readdir(path.join(process.env.UPLOADS_DIR!, 'research-attachments')).then(
    (names) => names.filter((name) => name.endsWith('.pdf')).length,
    () => 0,
  )
}

/** A published report with MINIMAL_PDF attached, read by one running subscriber. */
async function publishedWithAttachment(at = new Date()) {
  const service = await createService('Equity attachments', 100_000, 30)
  const admin = await signedInUser({ role: 'ADMIN' })
  const reader = await signedInUser({ completeProfile: true })
  await subscribe(reader.userId, service.id, new Date(at.getTime() - DAY_MS), new Date(at.getTime() + DAY_MS))
  const draft = await createResearchDraft(
    admin.userId,
    {
      title: 'Banks with tables',
      body: 'See the PDF.',
      serviceIds: [service.id],
      financialInterest: false,
      ownershipOnePercent: false,
      compensationPastYear: false,
      aiToolsUsed: false,
      otherConflict: 'None',
    },
    at,
    { file: await receivedFileOf(MINIMAL_PDF), name: 'Banks tables.pdf' },
  )
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId, at)
  if (!published.ok) throw new Error(published.reason)
  return { itemId: draft.id, admin, reader, service }
}

describe('the attachment on the analyst form: bad input first', () => {
  it('refuses a 10.1 MB PDF with 413 and the message on the field, keeping everything typed', async () => {
    const service = await createService('Equity big', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const before = await prisma.researchItem.count()
    const refused = (await adminNewRoute.action(
      routeArgs(
        researchFormRequest(admin.cookie, REPORT_FIELDS(service.id), {
          bytes: pdfOfSize(Math.round(10.1 * 1024 * 1024)),
          name: 'big.pdf',
          type: 'application/pdf',
        }),
      ),
    )) as unknown as Replied
    expect(refused.init.status).toBe(413)
    expect(refused.data.result.error.attachment).toEqual([RESEARCH_ATTACHMENT_MESSAGES.tooLarge])
    const typed = refused.data.result.initialValue
    expect(typed).toMatchObject({ title: 'Banks: the quarter in full', serviceIds: service.id, otherConflict: 'None' })
    // Multipart carries line breaks as CRLF; the form shows them as typed.
    expect(String(typed.body).replace(/\r\n/g, '\n')).toBe('## Summary\nMargins held. The full tables are in the PDF.')
    expect(await prisma.researchItem.count()).toBe(before)
  })

  it('accepts a PDF of exactly 10 MB', async () => {
    const service = await createService('Equity limit', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const saved = await thrown(
      adminNewRoute.action(
        routeArgs(
          researchFormRequest(admin.cookie, REPORT_FIELDS(service.id), {
            bytes: pdfOfSize(RESEARCH_ATTACHMENT_MAX_BYTES),
            name: 'limit.pdf',
            type: 'application/pdf',
          }),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const itemId = saved.headers.get('Location')!.split('/').at(-1)!
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    expect(item.attachmentSize).toBe(RESEARCH_ATTACHMENT_MAX_BYTES)
  })

  it('refuses a renamed program or image called .pdf and declared as a PDF (415), by content', async () => {
    const service = await createService('Equity impostor', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    for (const bytes of [RENAMED_EXE, TINY_PNG]) {
      const refused = (await adminNewRoute.action(
        routeArgs(
          researchFormRequest(admin.cookie, REPORT_FIELDS(service.id), {
            bytes: Uint8Array.from(bytes),
            name: 'report.pdf',
            type: 'application/pdf',
          }),
        ),
      )) as unknown as Replied
      expect(refused.init.status).toBe(415)
      expect(refused.data.result.error.attachment).toEqual([RESEARCH_ATTACHMENT_MESSAGES.wrongType])
      expect(refused.data.result.initialValue.title).toBe('Banks: the quarter in full')
    }
  })

  it('asks for the PDF again when another field is wrong, and stores nothing', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const files = await storedFileCount()
    const { serviceIds: _none, ...withoutServices } = REPORT_FIELDS('unused')
    const refused = (await adminNewRoute.action(
      routeArgs(
        researchFormRequest(admin.cookie, withoutServices, {
          bytes: MINIMAL_PDF,
          name: 'ok.pdf',
          type: 'application/pdf',
        }),
      ),
    )) as unknown as Replied
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.serviceIds).toEqual(['Choose at least one service.'])
    expect(refused.data.result.error.attachment).toEqual([RESEARCH_ATTACHMENT_MESSAGES.chooseAgain])
    expect(await storedFileCount()).toBe(files)
    // Nor is it left where it arrived (decision 058).
    expect(await readdir(path.join(process.env.UPLOADS_DIR!, '.incoming')).catch(() => [])).toEqual([])
  })

  it('saves a draft without an attachment when no file is chosen', async () => {
    const service = await createService('Equity none', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const saved = await thrown(
      adminNewRoute.action(routeArgs(researchFormRequest(admin.cookie, REPORT_FIELDS(service.id)))),
    )
    expect(saved.status).toBe(302)
    const item = await prisma.researchItem.findUniqueOrThrow({
      where: { id: saved.headers.get('Location')!.split('/').at(-1)! },
    })
    expect(item.attachmentKey).toBeNull()
  })
})

describe('a report with a PDF: kept with the draft, signed, served to its readers only', () => {
  it('keeps the PDF with the draft, shows it to admins, and signs its SHA-256 at publication', async () => {
    const service = await createService('Equity signed', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const saved = await thrown(
      adminNewRoute.action(
        routeArgs(
          researchFormRequest(admin.cookie, REPORT_FIELDS(service.id), {
            bytes: MINIMAL_PDF,
            name: 'Banks Q2.pdf',
            type: 'application/octet-stream',
          }),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const itemId = saved.headers.get('Location')!.split('/').at(-1)!
    const draft = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    expect(draft).toMatchObject({ attachmentName: 'Banks Q2.pdf', attachmentSize: MINIMAL_PDF.length })
    expect(draft.attachmentSha256).toMatch(/^[0-9a-f]{64}$/)

    const preview = await adminAttachmentRoute.loader(
      routeArgs(getRequest(`/admin/research/${itemId}/attachment`, admin.cookie), { itemId }),
    )
    expect(preview.status).toBe(200)
    expect(new Uint8Array(await preview.arrayBuffer())).toEqual(MINIMAL_PDF)
    const customer = await signedInUser({ completeProfile: true })
    expect(
      (await thrown(adminAttachmentRoute.loader(routeArgs(getRequest('/x', customer.cookie), { itemId })))).status,
    ).toBe(404)

    expect(await publishResearchItem(itemId, admin.userId)).toMatchObject({ ok: true })
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId }, select: researchItemSelect })
    const canonical = JSON.parse(
      canonicalResearchContent({
        id: item.id,
        kind: item.kind,
        title: item.title,
        body: item.body,
        serviceIds: [service.id],
        disclosures: item,
        analyst: {
          name: item.analystName!,
          sebiRegistrationNumber: item.sebiRegistrationNumber!,
          bseEnlistmentNumber: item.bseEnlistmentNumber!,
        },
        authorId: item.authorId,
        publishedAt: item.publishedAt!,
        attachment: { sha256: draft.attachmentSha256!, size: draft.attachmentSize!, name: draft.attachmentName! },
      }),
    )
    expect(canonical.attachment).toEqual({
      sha256: draft.attachmentSha256,
      size: MINIMAL_PDF.length,
      name: 'Banks Q2.pdf',
    })
    expect(await verifyStoredResearchItem(itemId)).toBe('verified')
    await prisma.researchItem.update({ where: { id: itemId }, data: { attachmentSha256: 'f'.repeat(64) } })
    expect(await verifyStoredResearchItem(itemId)).toBe('altered')
  })

  it('streams it to a subscriber as a download; another customer, an ended subscriber and a visitor do not get it', async () => {
    const now = new Date()
    const { itemId, reader, service } = await publishedWithAttachment(now)
    const download = (cookie?: string) =>
      thrown(attachmentRoute.loader(routeArgs(getRequest(`/research/${itemId}/attachment`, cookie), { itemId })))

    const response = await download(reader.cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Banks tables.pdf"; filename*=UTF-8''Banks%20tables.pdf`,
    )
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(MINIMAL_PDF)

    const other = await signedInUser({ completeProfile: true })
    expect((await download(other.cookie)).status).toBe(404)
    // Subscribed once, ended the day before publication: never on the roll, no archive now.
    const ended = await signedInUser({ completeProfile: true })
    await subscribe(ended.userId, service.id, new Date(now.getTime() - 30 * DAY_MS), new Date(now.getTime() - DAY_MS))
    expect((await download(ended.cookie)).status).toBe(404)
    // A visitor is sent to sign in, as on the item's page.
    expect((await download()).status).toBe(302)
    // A malformed id and an item without an attachment: the same 404.
    expect(
      (
        await thrown(
          attachmentRoute.loader(routeArgs(getRequest('/research/nope/attachment', reader.cookie), { itemId: 'nope' })),
        )
      ).status,
    ).toBe(404)

    // The API names it and its path.
    const api = await apiItemRoute.loader(
      routeArgs(getRequest(`/api/v1/research/${itemId}`, reader.cookie), { itemId }),
    )
    const json = (await (api as Response).json()) as { data: { data: { research: { attachment: unknown } } } }
    expect(json.data.data.research.attachment).toMatchObject({
      name: 'Banks tables.pdf',
      size: MINIMAL_PDF.length,
      path: `/research/${itemId}/attachment`,
    })
  })

  it('is mentioned with a link in the e-mail and the Telegram message, never attached', async () => {
    const { itemId } = await publishedWithAttachment()
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId }, select: researchItemSelect })
    const email = researchEmail(item, CONTEXT)('Asha')
    expect(email.body).toContain('This item has a PDF attachment: Banks tables.pdf')
    expect(email.body).toContain(`https://store.example/research/${itemId}/attachment`)
    expect(email.html).toContain(`https://store.example/research/${itemId}/attachment`)
    expect(researchTelegram(item, CONTEXT).text).toContain(
      `Attachment: Banks tables.pdf (PDF, 1 KB): https://store.example/research/${itemId}/attachment`,
    )
  })
})

describe('the audit pack and retention', () => {
  let folder: string | undefined
  async function saved(body: ReadableStream<Uint8Array> | Buffer): Promise<string> {
    folder ??= mkdtempSync(path.join(tmpdir(), 'attachment-pack-'))
    const file = path.join(folder, `${Date.now()}-${Math.random()}.zip`)
    writeFileSync(file, Buffer.isBuffer(body) ? body : Buffer.from(await new Response(body).arrayBuffer()))
    return file
  }

  it('holds the PDF, which research:verify hashes against the signed record; a swapped PDF is named', async () => {
    const { itemId, admin } = await publishedWithAttachment()
    const pack = (await researchAuditPack(admin.userId, { itemId }))!
    const file = await saved(pack.body)
    const entries = new Map<string, Buffer>()
    for await (const entry of zipEntries(file)) {
      const chunks: Buffer[] = []
      for await (const chunk of await entry.open()) chunks.push(chunk as Buffer)
      entries.set(entry.name, Buffer.concat(chunks))
    }
    expect(new Uint8Array(entries.get(attachmentEntryName(itemId))!)).toEqual(MINIMAL_PDF)
    expect(JSON.parse(entries.get('manifest.json')!.toString()).attachments).toEqual({
      files: 1,
      missingFromStorage: [],
    })
    const verified = await verifyAuditPack(file)
    expect(verified).toMatchObject({ ok: true, attachmentsChecked: 1, attachmentsNotIncluded: [] })

    const rezip = async (alter: (name: string, bytes: Buffer) => Buffer | null) => {
      const kept = [...entries].flatMap(([name, bytes]) => {
        const altered = alter(name, bytes)
        return altered
          ? [
              {
                name,
                content: async function* () {
                  yield altered
                },
              },
            ]
          : []
      })
      const chunks: Buffer[] = []
      for await (const chunk of zipStream(kept, new Date())) chunks.push(chunk)
      return saved(Buffer.concat(chunks))
    }
    const swapped = await rezip((name, bytes) =>
      name === attachmentEntryName(itemId)
        ? Buffer.from(bytes.toString('latin1').replace('200 200', '300 300'), 'latin1')
        : bytes,
    )
    const swappedResult = await verifyAuditPack(swapped)
    expect(swappedResult.ok).toBe(false)
    expect(swappedResult.altered).toEqual([
      expect.objectContaining({ id: itemId, problems: ['its attached PDF differs from the SHA-256 that was signed'] }),
    ])

    // Without the file, the pack says so and checks only the signed hash.
    const without = await rezip((name, bytes) => (name === attachmentEntryName(itemId) ? null : bytes))
    expect(await verifyAuditPack(without)).toMatchObject({
      ok: true,
      attachmentsChecked: 0,
      attachmentsNotIncluded: [{ id: itemId, title: 'Banks with tables' }],
    })
  })

  it('erases the file with the item after 5 years', async () => {
    const publishedAt = new Date(Date.now() - 6 * 365 * DAY_MS)
    const { itemId } = await publishedWithAttachment(publishedAt)
    const key = (await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).attachmentKey!
    expect(await getFileStorage().get(key)).not.toBeNull()
    const actor = await signedInUser({ role: 'ADMIN' })
    await eraseExpiredResearch(new Date(), actor.userId)
    expect(await prisma.researchItem.findUnique({ where: { id: itemId } })).toBeNull()
    expect(await getFileStorage().get(key)).toBeNull()
  })
})

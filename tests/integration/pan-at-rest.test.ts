import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { correctionRequestsOf } from '~/server/account/corrections.server'
import { prisma } from '~/server/db.server'
import { env } from '~/server/env.server'
import { familyUserIds, saveFamilyMembers } from '~/server/account/family-members.server'
import { encryptPlaintextPans } from '~/server/kyc/pan-at-rest.server'
import { isEncryptedPan } from '~/server/kyc/pan-crypto.server'
import { panKeysFromEnv } from '~/server/kyc/pan-keys.server'
import { ASHA_RAO, uniqueMobile, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// What the database holds, read past the Prisma extension that encrypts and decrypts PANs.
const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
beforeAll(() => client.connect())
afterAll(() => client.end())

const rowText = async (table: 'users' | 'family_members' | 'correction_requests', where: string, value: string) =>
  (
    await client.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM ${table} t WHERE ${where} = $1::uuid`,
      [value],
    )
  ).rows.map((row) => row.row)

describe('PANs at rest', () => {
  it('leaves no plaintext PAN in the rows of users and family_members, and reads them back whole', async () => {
    const [pan, spouse] = [uniquePan(), uniquePan()]
    const { userId } = await signedInUser({ details: { ...ASHA_RAO, pan } })
    await saveFamilyMembers(userId, [{ pan: spouse, relation: 'SPOUSE' }])
    const [user] = await rowText('users', 'id', userId)
    const members = await rowText('family_members', 'user_id', userId)
    expect(user).toBeDefined()
    expect(members).toHaveLength(1)
    for (const row of [user!, ...members]) {
      expect(row).not.toContain(pan)
      expect(row).not.toContain(spouse)
      const stored = JSON.parse(row) as { pan_encrypted: string; pan_hash: string }
      expect(isEncryptedPan(stored.pan_encrypted)).toBe(true)
      expect(stored.pan_hash).toMatch(/^[\w-]{43}$/)
    }
    const read = await prisma.user.findUniqueOrThrow({
      where: { id: userId },
      select: { pan: true, familyMembers: { select: { pan: true } } },
    })
    expect(read).toEqual({ pan, familyMembers: [{ pan: spouse }] })
    expect((await prisma.user.findFirstOrThrow({ where: { pan }, select: { id: true } })).id).toBe(userId)
    expect(await prisma.familyMember.count({ where: { pan: { in: [spouse, uniquePan()] } } })).toBe(1)
  })

  it('keeps one account per PAN when two accounts write it at the same moment', async () => {
    const pan = uniquePan()
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => prisma.user.create({ data: { phone: `+91${uniqueMobile()}`, pan } })),
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected'))
      expect(outcome.reason).toMatchObject({ code: 'P2002' })
    expect(await prisma.user.count({ where: { pan } })).toBe(1)
  })

  it('refuses a filter that would need the plaintext (a partial match)', async () => {
    await expect(prisma.user.findFirst({ where: { pan: { startsWith: 'ABC' } } })).rejects.toThrow(/only exact ones/)
  })

  it('encrypts rows a store held before encryption, once, and the family fee cap finds them', async () => {
    const [pan, child] = [uniquePan(), uniquePan()]
    const {
      rows: [parent],
    } = await client.query<{ id: string }>(
      `INSERT INTO users (phone, pan_encrypted) VALUES ($1, $2) RETURNING id::text`,
      [`+91${uniqueMobile()}`, pan],
    )
    const holder = await prisma.user.create({
      data: { phone: `+91${uniqueMobile()}`, pan: child },
      select: { id: true },
    })
    await client.query(`INSERT INTO family_members (user_id, pan_encrypted, relation) VALUES ($1::uuid, $2, 'CHILD')`, [
      parent!.id,
      child,
    ])
    const keys = panKeysFromEnv(env)
    expect(await encryptPlaintextPans(client, keys)).toBeGreaterThanOrEqual(2)
    expect(await encryptPlaintextPans(client, keys)).toBe(0)
    for (const row of [
      ...(await rowText('users', 'id', parent!.id)),
      ...(await rowText('family_members', 'user_id', parent!.id)),
    ]) {
      expect(row).not.toContain(pan)
      expect(row).not.toContain(child)
    }
    expect((await prisma.user.findUniqueOrThrow({ where: { id: parent!.id } })).pan).toBe(pan)
    expect((await prisma.$transaction((tx) => familyUserIds(tx, parent!.id))).sort()).toEqual(
      [parent!.id, holder.id].sort(),
    )
  })

  it('encrypts the PANs in correction requests filed before encryption, and reads them either way', async () => {
    const { userId } = await signedInUser({ completeProfile: true })
    const [oldPan, newPan] = [uniquePan(), uniquePan()]
    const {
      rows: [filed],
    } = await client.query<{ id: string }>(
      `INSERT INTO correction_requests (user_id, old_values, new_values, reason) VALUES ($1::uuid, $2, $3, 'typo') RETURNING id::text`,
      [userId, { pan: oldPan }, { pan: newPan }],
    )
    expect((await correctionRequestsOf(userId))[0]!.changes).toEqual([{ field: 'pan', from: oldPan, to: newPan }])
    await encryptPlaintextPans(client, panKeysFromEnv(env))
    const [row] = await rowText('correction_requests', 'id', filed!.id)
    expect(row).not.toContain(oldPan)
    expect(row).not.toContain(newPan)
    expect((await correctionRequestsOf(userId))[0]!.changes).toEqual([{ field: 'pan', from: oldPan, to: newPan }])
  })
})

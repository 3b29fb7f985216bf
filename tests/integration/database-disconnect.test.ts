import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { disconnectDatabase, prisma } from '~/server/db.server'

describe('disconnectDatabase', () => {
  it('resolves once every pooled connection has closed, so a database stopped next ends none of them', async () => {
    await prisma.$queryRaw`SELECT 1`
    const pool = (globalThis as { prismaPool?: pg.Pool }).prismaPool!
    let connected = 0
    let closed = 0
    pool.on('connect', (client) => {
      connected++
      client.once('end', () => closed++)
    })
    // Concurrent queries make the pool open more connections.
    await Promise.all(Array.from({ length: 4 }, () => prisma.$queryRaw`SELECT pg_sleep(0.05)::text`))
    expect(connected).toBeGreaterThan(0)

    await disconnectDatabase()

    expect(closed).toBe(connected)
  })
})

import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { shapeFromDatabase, shapeFromPrismaSchema, type SchemaShape } from '../support/schema-shape'

// The per-file database is a copy of the template that every migration was applied to.
let migrated: SchemaShape
let schemaText: string

beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    migrated = await shapeFromDatabase(client)
  } finally {
    await client.end()
  }
  schemaText = await readFile('prisma/schema.prisma', 'utf8')
})

describe('schema.prisma and the migrations', () => {
  it('describe the same tables, columns, types, nullability, keys and enums', () => {
    expect(migrated).toEqual(shapeFromPrismaSchema(schemaText))
  })

  it('would notice a column whose nullability differs', () => {
    const drifted = schemaText.replace(/^(\s+name\s+)String$/m, '$1String?')
    expect(drifted).not.toBe(schemaText)
    expect(migrated).not.toEqual(shapeFromPrismaSchema(drifted))
  })

  it('would notice a unique constraint that only the schema has', () => {
    const drifted = schemaText.replace('@@unique([name])', '@@unique([name])\n  @@unique([pricePaise, durationDays])')
    expect(migrated).not.toEqual(shapeFromPrismaSchema(drifted))
  })

  it('would notice a column of another type', () => {
    const drifted = schemaText.replace(/(pricePaise\s+)Int/, '$1BigInt')
    expect(migrated).not.toEqual(shapeFromPrismaSchema(drifted))
  })
})

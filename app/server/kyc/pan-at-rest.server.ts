import type pg from 'pg'
import { Prisma, type PrismaClient } from '~/generated/prisma/client'
import { decryptPan, encryptPan, isEncryptedPan, panLookupHash, type PanKeys } from './pan-crypto.server'

// Every Prisma query passes through here (app/server/db.server.ts): a `pan` written is stored
// encrypted with its lookup hash beside it, a `pan` filtered on is looked up by that hash, and a
// `pan` read comes back decrypted, on User and FamilyMember and through any relation that reaches
// them. Raw SQL does not pass through here: it reads pan_encrypted and pan_hash itself.

type DataModel = {
  models: Record<string, { fields: readonly { name: string; kind: string; type: string }[] }>
}
type Plain = Record<string, unknown>

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)

const PAN_FIELD = 'pan'
const HASH_FIELD = 'panHash'

class PanQueries {
  constructor(
    private readonly dataModel: DataModel,
    private readonly keys: PanKeys,
  ) {}

  private hasPan(model: string) {
    return this.dataModel.models[model]?.fields.some((field) => field.name === HASH_FIELD) ?? false
  }

  private relationTarget(model: string, field: string): string | null {
    const found = this.dataModel.models[model]?.fields.find((candidate) => candidate.name === field)
    return found?.kind === 'object' ? found.type : null
  }

  private hash = (pan: unknown) => (typeof pan === 'string' ? panLookupHash(this.keys, pan) : pan)

  /** A filter on `pan` as one on its lookup hash: exact matches only (equals, in, notIn, not). */
  private panFilter(filter: unknown): unknown {
    if (!isPlain(filter)) return this.hash(filter)
    return Object.fromEntries(
      Object.entries(filter).map(([operator, value]) => {
        if (operator === 'equals') return [operator, this.hash(value)]
        if (operator === 'in' || operator === 'notIn')
          return [operator, Array.isArray(value) ? value.map(this.hash) : value]
        if (operator === 'not') return [operator, this.panFilter(value)]
        throw new Error(`PANs are stored encrypted: a "${operator}" filter on pan cannot work, only exact ones`)
      }),
    )
  }

  where(model: string, where: unknown): unknown {
    if (Array.isArray(where)) return where.map((item) => this.where(model, item))
    if (!isPlain(where)) return where
    const out: Plain = {}
    for (const [key, value] of Object.entries(where)) {
      if (key === 'AND' || key === 'OR' || key === 'NOT') out[key] = this.where(model, value)
      else if (key === PAN_FIELD && this.hasPan(model)) out[HASH_FIELD] = this.panFilter(value)
      else if (key.endsWith('_pan') && this.hasPan(model) && isPlain(value)) {
        // A compound unique such as userId_pan.
        const { pan, ...rest } = value
        out[`${key.slice(0, -'_pan'.length)}_${HASH_FIELD}`] = { ...rest, [HASH_FIELD]: this.hash(pan) }
      } else {
        const target = this.relationTarget(model, key)
        out[key] = target ? this.relationFilter(target, value) : value
      }
    }
    return out
  }

  /** `{ some: {...} }`, `{ is: {...} }`, or a to-one relation's filter given directly. */
  private relationFilter(target: string, filter: unknown): unknown {
    if (!isPlain(filter)) return filter
    const listOperators = ['some', 'every', 'none', 'is', 'isNot']
    if (Object.keys(filter).some((key) => listOperators.includes(key))) {
      return Object.fromEntries(
        Object.entries(filter).map(([operator, value]) => [
          operator,
          listOperators.includes(operator) ? this.where(target, value) : value,
        ]),
      )
    }
    return this.where(target, filter)
  }

  data(model: string, data: unknown): unknown {
    if (Array.isArray(data)) return data.map((item) => this.data(model, item))
    if (!isPlain(data)) return data
    const out: Plain = {}
    for (const [key, value] of Object.entries(data)) {
      if (key === PAN_FIELD && this.hasPan(model)) {
        const pan = isPlain(value) && 'set' in value ? value.set : value
        if (typeof pan === 'string') {
          // The hash is of the exact text: a PAN in another case would escape the unique index
          // (what the old CHECK constraint users_pan_upper_case refused).
          if (pan !== pan.trim().toUpperCase())
            throw new Error('A PAN is stored upper-case and trimmed (pan_upper_case): normalise it first')
          out[PAN_FIELD] = encryptPan(this.keys, pan)
          out[HASH_FIELD] = panLookupHash(this.keys, pan)
        } else if (pan === null) {
          out[PAN_FIELD] = null
          out[HASH_FIELD] = null
        } else out[key] = value
        continue
      }
      if (key === HASH_FIELD && this.hasPan(model)) continue // written only from the PAN above
      const target = this.relationTarget(model, key)
      out[key] = target ? this.nestedWrite(target, value) : value
    }
    return out
  }

  /** Nested writes through a relation: create, connect, update, upsert and the rest. */
  private nestedWrite(target: string, write: unknown): unknown {
    if (!isPlain(write)) return write
    const each = <T>(value: unknown, map: (item: unknown) => T) => (Array.isArray(value) ? value.map(map) : map(value))
    const out: Plain = {}
    for (const [operation, value] of Object.entries(write)) {
      switch (operation) {
        case 'create':
          out[operation] = this.data(target, value)
          break
        case 'createMany':
          out[operation] = isPlain(value) ? { ...value, data: this.data(target, value.data) } : value
          break
        case 'connect':
        case 'disconnect':
        case 'delete':
        case 'set':
        case 'deleteMany':
          out[operation] = each(value, (item) => this.where(target, item))
          break
        case 'connectOrCreate':
          out[operation] = each(value, (item) =>
            isPlain(item) ? { where: this.where(target, item.where), create: this.data(target, item.create) } : item,
          )
          break
        case 'update':
        case 'updateMany':
          out[operation] = each(value, (item) =>
            isPlain(item) && 'data' in item
              ? { ...item, where: this.where(target, item.where), data: this.data(target, item.data) }
              : this.data(target, item),
          )
          break
        case 'upsert':
          out[operation] = each(value, (item) =>
            isPlain(item)
              ? {
                  ...item,
                  where: this.where(target, item.where),
                  create: this.data(target, item.create),
                  update: this.data(target, item.update),
                }
              : item,
          )
          break
        default:
          out[operation] = value
      }
    }
    return out
  }

  /** orderBy pan sorts by the lookup hash: ciphertexts differ per row, the hash at least is stable. */
  private orderBy(model: string, orderBy: unknown): unknown {
    if (Array.isArray(orderBy)) return orderBy.map((item) => this.orderBy(model, item))
    if (!isPlain(orderBy)) return orderBy
    return Object.fromEntries(
      Object.entries(orderBy).map(([key, value]) => {
        if (key === PAN_FIELD && this.hasPan(model)) return [HASH_FIELD, value]
        const target = this.relationTarget(model, key)
        return [key, target ? this.orderBy(target, value) : value]
      }),
    )
  }

  /** select / include: relations carry their own where and orderBy. */
  private selection(model: string, selection: unknown): unknown {
    if (!isPlain(selection)) return selection
    return Object.fromEntries(
      Object.entries(selection).map(([key, value]) => {
        const target = this.relationTarget(model, key)
        if (!target || !isPlain(value)) return [key, value]
        return [key, this.args(target, value)]
      }),
    )
  }

  args(model: string, args: unknown): unknown {
    if (!isPlain(args)) return args
    const out: Plain = { ...args }
    if ('where' in args) out.where = this.where(model, args.where)
    if ('data' in args) out.data = this.data(model, args.data)
    if ('create' in args) out.create = this.data(model, args.create)
    if ('update' in args) out.update = this.data(model, args.update)
    if ('orderBy' in args) out.orderBy = this.orderBy(model, args.orderBy)
    if ('cursor' in args) out.cursor = this.where(model, args.cursor)
    if ('select' in args) out.select = this.selection(model, args.select)
    if ('include' in args) out.include = this.selection(model, args.include)
    if ('by' in args && Array.isArray(args.by) && this.hasPan(model) && args.by.includes(PAN_FIELD))
      throw new Error('PANs are stored encrypted: group by pan cannot work')
    return out
  }

  /** Decrypts `pan` in a result, through every relation it includes. */
  result(model: string, result: unknown): unknown {
    if (Array.isArray(result)) return result.map((item) => this.result(model, item))
    if (!isPlain(result)) return result
    for (const [key, value] of Object.entries(result)) {
      if (key === PAN_FIELD && this.hasPan(model) && typeof value === 'string') {
        result[key] = decryptPan(this.keys, value)
      } else {
        const target = this.relationTarget(model, key)
        if (target) this.result(target, value)
      }
    }
    return result
  }
}

/** The extension db.server.ts and the scripts' client apply (see the comment at the top). */
export function panAtRest(keys: PanKeys) {
  return Prisma.defineExtension((client) => {
    const dataModel = (client as unknown as { _runtimeDataModel?: DataModel })._runtimeDataModel
    if (!dataModel) throw new Error('This Prisma client exposes no data model; PANs cannot be encrypted')
    const queries = new PanQueries(dataModel, keys)
    return client.$extends({
      name: 'pan-at-rest',
      query: {
        $allModels: {
          async $allOperations({ model, args, query }) {
            return queries.result(model, await query(queries.args(model, args) as typeof args))
          },
        },
      },
    })
  })
}

/** A client with the extension, typed as the plain client: the extension changes no types. */
export function withPanAtRest(client: PrismaClient, keys: PanKeys): PrismaClient {
  return client.$extends(panAtRest(keys)) as unknown as PrismaClient
}

const ENCRYPT_BATCH_ROWS = 500

/**
 * The data step of migration 20261128300000_pan_at_rest, run by start-up and `npm run db:migrate`
 * after the SQL migrations: SQL cannot encrypt with the app's key, so the migration moved each
 * plaintext PAN into pan_encrypted with no hash; this encrypts those rows, in batches, and sets
 * their hash. Rows already encrypted are left alone, so running it again does nothing.
 * Returns how many rows it encrypted.
 */
export async function encryptPlaintextPans(client: pg.Client, keys: PanKeys): Promise<number> {
  let encrypted = 0
  for (const table of ['users', 'family_members'] as const) {
    for (;;) {
      await client.query('BEGIN')
      try {
        const { rows } = await client.query<{ id: string; pan: string }>(
          `SELECT id::text, pan_encrypted AS pan FROM ${table}
           WHERE pan_hash IS NULL AND pan_encrypted IS NOT NULL
           LIMIT ${ENCRYPT_BATCH_ROWS} FOR UPDATE SKIP LOCKED`,
        )
        for (const row of rows) {
          if (isEncryptedPan(row.pan)) {
            await client.query(`UPDATE ${table} SET pan_hash = $2 WHERE id = $1::uuid`, [
              row.id,
              panLookupHash(keys, decryptPan(keys, row.pan)),
            ])
          } else {
            await client.query(`UPDATE ${table} SET pan_encrypted = $2, pan_hash = $3 WHERE id = $1::uuid`, [
              row.id,
              encryptPan(keys, row.pan),
              panLookupHash(keys, row.pan),
            ])
          }
        }
        await client.query('COMMIT')
        encrypted += rows.length
        if (rows.length < ENCRYPT_BATCH_ROWS) break
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
  }
  return encrypted + (await encryptPlaintextCorrectionPans(client, keys))
}

/** The same for the PANs inside correction requests (old_values, new_values: JSON the extension does not see). */
async function encryptPlaintextCorrectionPans(client: pg.Client, keys: PanKeys): Promise<number> {
  const { rows } = await client.query<{ id: string; old_values: { pan?: unknown }; new_values: { pan?: unknown } }>(
    `SELECT id::text, old_values, new_values FROM correction_requests
     WHERE (jsonb_typeof(old_values -> 'pan') = 'string' AND old_values ->> 'pan' NOT LIKE 'pan1.%')
        OR (jsonb_typeof(new_values -> 'pan') = 'string' AND new_values ->> 'pan' NOT LIKE 'pan1.%')`,
  )
  const seal = (values: { pan?: unknown }) =>
    typeof values.pan === 'string' && !isEncryptedPan(values.pan)
      ? { ...values, pan: encryptPan(keys, values.pan) }
      : values
  for (const row of rows)
    await client.query('UPDATE correction_requests SET old_values = $2, new_values = $3 WHERE id = $1::uuid', [
      row.id,
      seal(row.old_values),
      seal(row.new_values),
    ])
  return rows.length
}

import { createRequire } from 'node:module'
import type pg from 'pg'

// The schema parser Prisma itself uses (WebAssembly, works offline); CommonJS only.
const { get_dmmf } = createRequire(import.meta.url)('@prisma/prisma-schema-wasm') as {
  get_dmmf: (params: string) => string
}

/** What a database's shape is compared on: tables, columns (type, nullability), keys and enums. */
export type SchemaShape = {
  tables: Record<string, { columns: Record<string, string>; primaryKey: string[]; uniques: string[][] }>
  enums: Record<string, string[]>
}

type DmmfField = {
  name: string
  dbName?: string | null
  kind: 'scalar' | 'enum' | 'object' | 'unsupported'
  type: string
  isList: boolean
  isRequired: boolean
  isUnique: boolean
  isId: boolean
  nativeType: [string, string[]] | null
}
type DmmfModel = {
  name: string
  dbName: string | null
  fields: DmmfField[]
  primaryKey: { fields: string[] } | null
  uniqueFields: string[][]
}
type DmmfEnum = { name: string; dbName?: string | null; values: { name: string; dbName?: string | null }[] }

const SCALAR_COLUMN_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3)',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Json: 'jsonb',
  Bytes: 'bytea',
}

const NATIVE_COLUMN_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => 'uuid',
  Text: () => 'text',
  VarChar: (args) => (args.length ? `character varying(${args[0]})` : 'character varying'),
  Char: (args) => `character(${args[0] ?? 1})`,
  Timestamptz: (args) => `timestamp(${args[0] ?? 3}) with time zone`,
  Timestamp: (args) => `timestamp(${args[0] ?? 3})`,
  Date: () => 'date',
  Inet: () => 'inet',
  SmallInt: () => 'smallint',
  Integer: () => 'integer',
  BigInt: () => 'bigint',
  JsonB: () => 'jsonb',
}

function columnType(field: DmmfField, enums: DmmfEnum[]): string {
  let type: string
  if (field.kind === 'enum') {
    const enumType = enums.find((candidate) => candidate.name === field.type)!
    type = enumType.dbName ?? enumType.name
  } else if (field.nativeType) {
    const [native, args] = field.nativeType
    const map = NATIVE_COLUMN_TYPES[native]
    if (!map) throw new Error(`schema-shape does not know the native type @db.${native} yet: add it`)
    type = map(args)
  } else {
    type = SCALAR_COLUMN_TYPES[field.type] ?? field.type
  }
  // Prisma's default DateTime is timestamp(3) without time zone, which format_type prints that way.
  if (type === 'timestamp(3)') type = 'timestamp(3) without time zone'
  return `${type}${field.isList ? '[]' : ''} ${field.isRequired ? 'NOT NULL' : 'NULL'}`
}

/** The shape that `schema.prisma` describes. */
export function shapeFromPrismaSchema(schemaText: string): SchemaShape {
  const { datamodel } = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schemaText }))) as {
    datamodel: { models: DmmfModel[]; enums: DmmfEnum[] }
  }
  const shape: SchemaShape = { tables: {}, enums: {} }
  for (const enumType of datamodel.enums) {
    shape.enums[enumType.dbName ?? enumType.name] = enumType.values.map((value) => value.dbName ?? value.name)
  }
  for (const model of datamodel.models) {
    const columnOf = (fieldName: string) => {
      const field = model.fields.find((candidate) => candidate.name === fieldName)!
      return field.dbName ?? field.name
    }
    const columns: Record<string, string> = {}
    for (const field of model.fields) {
      if (field.kind === 'object') continue
      columns[field.dbName ?? field.name] = columnType(field, datamodel.enums)
    }
    const idField = model.fields.find((field) => field.isId)
    const primaryKey = idField ? [columnOf(idField.name)] : (model.primaryKey?.fields ?? []).map(columnOf)
    const uniques = [
      ...model.fields.filter((field) => field.isUnique).map((field) => [columnOf(field.name)]),
      ...model.uniqueFields.map((fields) => fields.map(columnOf)),
    ]
    shape.tables[model.dbName ?? model.name] = { columns, primaryKey, uniques: normaliseSets(uniques) }
  }
  return shape
}

/** The shape of the `public` schema of a live database (migration bookkeeping excluded). */
export async function shapeFromDatabase(client: pg.Client): Promise<SchemaShape> {
  const shape: SchemaShape = { tables: {}, enums: {} }
  const { rows: enumRows } = await client.query<{ name: string; value: string }>(`
    SELECT t.typname AS name, e.enumlabel AS value
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' ORDER BY t.typname, e.enumsortorder`)
  for (const row of enumRows) (shape.enums[row.name] ??= []).push(row.value)

  const { rows: columnRows } = await client.query<{ table: string; column: string; type: string; not_null: boolean }>(`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relname <> '_prisma_migrations'
    ORDER BY c.relname, a.attnum`)
  for (const row of columnRows) {
    const table = (shape.tables[row.table] ??= { columns: {}, primaryKey: [], uniques: [] })
    // format_type quotes mixed-case enum names ("Role"); the Prisma side names them bare.
    table.columns[row.column] = `${row.type.replaceAll('"', '')} ${row.not_null ? 'NOT NULL' : 'NULL'}`
  }

  const { rows: indexRows } = await client.query<{ table: string; primary: boolean; columns: string[] }>(`
    SELECT c.relname AS table, i.indisprimary AS primary,
      array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.position)::text[] AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND i.indisunique AND c.relname <> '_prisma_migrations'
      -- A partial unique index (WHERE ...) has no counterpart in schema.prisma: its migration is the record.
      AND i.indpred IS NULL`)
  for (const row of indexRows) {
    const table = shape.tables[row.table]
    if (!table) continue
    if (row.primary) table.primaryKey = row.columns
    else table.uniques.push(row.columns)
  }
  for (const table of Object.values(shape.tables)) table.uniques = normaliseSets(table.uniques)
  return shape
}

/** Sorted and without repeats: DMMF lists a single-field @@unique both on the field and the model. */
function normaliseSets(sets: string[][]): string[][] {
  const keys = new Set(sets.map((set) => [...set].sort().join(',')))
  return [...keys].sort().map((key) => key.split(','))
}

// What autovacuum is doing on the bench's database: a VACUUM of a million-row table started by
// autovacuum in the middle of a timed section shows up as p95 outliers (docs/testing.md, At scale).
import pg from 'pg'

/** The tables autovacuum workers are vacuuming or analysing right now, as pg_stat_activity shows them. */
export async function autovacuumActivity(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()`,
    )
    return rows.map((row) => row.query.replace(/^autovacuum:\s*/, ''))
  } finally {
    await client.end()
  }
}

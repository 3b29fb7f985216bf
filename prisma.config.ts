import { defineConfig } from 'prisma/config'

// The CLI only needs a URL for migrate/studio; `prisma generate` runs without one.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
})

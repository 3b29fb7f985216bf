import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// Each lint zone of eslint.config.js (docs/architecture.md, "The lint zones"), proven by a probe that
// must fail: a file at a path inside the zone importing what the zone forbids. Beside each, an import
// the zone allows, so a rule that refused everything would fail too.
type Probe = { zone: string; file: string; refused: string; allowed: string }

const PROBES: Probe[] = [
  {
    zone: 'components never import server code',
    file: 'app/components/probe.tsx',
    refused: "import { env } from '~/server/env.server'",
    allowed: "import { formatRupees } from '~/domain/money'",
  },
  {
    zone: 'components never import a server module by a relative path',
    file: 'app/components/probe.tsx',
    refused: "import { env } from '../server/env.server'",
    allowed: "import { Field } from './forms'",
  },
  {
    zone: 'content never imports server code',
    file: 'app/content/legal/probe.ts',
    refused: "import { businessDetails } from '~/server/business.server'",
    allowed: "import { formatIsoDate } from '~/domain/dates'",
  },
  {
    zone: 'content never imports a database client',
    file: 'app/content/legal/probe.ts',
    refused: "import pg from 'pg'",
    allowed: "import { SCORES_URL } from './regulatory'",
  },
  {
    zone: 'routes never import the database client',
    file: 'app/routes/probe.tsx',
    refused: "import { prisma } from '~/server/db.server'",
    allowed: "import { getActiveServices } from '~/server/catalog/services.server'",
  },
  {
    zone: 'routes never import Prisma',
    file: 'app/routes/probe.tsx',
    refused: "import { PrismaClient } from '@prisma/client'",
    allowed: "import { Form } from 'react-router'",
  },
  {
    zone: 'routes never import demo-only code',
    file: 'app/routes/probe.tsx',
    refused: "import { outbox } from '~/demo/outbox'",
    allowed: "import { requireAdmin } from '~/server/auth/admin-role.server'",
  },
  {
    zone: 'server code never imports a component',
    file: 'app/server/payments/probe.server.ts',
    refused: "import { Field } from '~/components/forms'",
    allowed: "import { prisma } from '../db.server'",
  },
  {
    zone: 'server code never imports a route',
    file: 'app/server/probe.server.ts',
    refused: "import { loader } from '~/routes/pay'",
    allowed: "import { env } from './env.server'",
  },
  {
    zone: 'pg only from its own server modules',
    file: 'app/server/payments/probe.server.ts',
    refused: "import pg from 'pg'",
    allowed: "import type pg from 'pg'",
  },
  {
    zone: 'pg-boss only from the job queue',
    file: 'app/server/messaging/probe.server.ts',
    refused: "import PgBoss from 'pg-boss'",
    allowed: "import { jobQueue } from '../jobs/queue.server'",
  },
  {
    zone: 'nodemailer only from the mail module',
    file: 'app/server/account/probe.server.ts',
    refused: "import nodemailer from 'nodemailer'",
    allowed: "import { enqueueEmail } from '../jobs/queue.server'",
  },
  {
    zone: 'the zip libraries only from the audit pack zip module',
    file: 'app/server/research/probe.server.ts',
    refused: "import yazl from 'yazl'",
    allowed: "import { zipStream } from './audit-pack-zip.server'",
  },
  {
    zone: 'the Prisma packages only from the database module',
    file: 'app/server/jobs/probe.server.ts',
    refused: "import { PrismaPg } from '@prisma/adapter-pg'",
    allowed: "import { Prisma } from '~/generated/prisma/client'",
  },
  {
    zone: 'the Express server never imports a component',
    file: 'server/probe.ts',
    refused: "import { ErrorPage } from '~/components/error-page'",
    allowed: "import { env } from '~/server/env.server'",
  },
  {
    zone: 'domain never imports server code',
    file: 'app/domain/probe.ts',
    refused: "import { env } from '~/server/env.server'",
    allowed: "import { formatRupees } from './money'",
  },
  {
    zone: 'domain does no I/O',
    file: 'app/domain/probe.ts',
    refused: "import { readFileSync } from 'node:fs'",
    allowed: "import { z } from 'zod'",
  },
  {
    zone: 'domain imports nothing with side effects',
    file: 'app/domain/probe.ts',
    refused: "import { redirect } from 'react-router'",
    allowed: "import { parseWithZod } from '@conform-to/zod/v4'",
  },
  {
    zone: 'domain never imports a component',
    file: 'app/domain/probe.ts',
    refused: "import { Field } from '~/components/forms'",
    allowed: "import { formatIndiaDate } from '~/domain/dates'",
  },
]

const RESTRICTED = '@typescript-eslint/no-restricted-imports'

let eslint: ESLint
beforeAll(() => {
  eslint = new ESLint()
})

/** The restricted-import messages ESLint gives a file at `file` holding `line` and a use of what it imports. */
async function refusals(file: string, line: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${line}\nexport const probe = [] as unknown[]\n`, { filePath: file })
  return result!.messages.filter((message) => message.ruleId === RESTRICTED).map((message) => message.message)
}

describe('the lint zones', () => {
  it.each(PROBES)('$zone', { timeout: 30_000 }, async ({ file, refused, allowed }) => {
    expect(await refusals(file, refused)).not.toEqual([])
    expect(await refusals(file, allowed)).toEqual([])
  })
})

describe('the logger rule (no-console)', () => {
  const consoleMessages = async (file: string, text: string) =>
    (await eslint.lintText(text, { filePath: file }))[0]!.messages.filter((message) => message.ruleId === 'no-console')

  it.each(['app/server/payments/probe.server.ts', 'server/probe.ts', 'app/routes/probe.tsx', 'scripts/db/probe.ts'])(
    'refuses a console call in %s, where the logger writes every line',
    { timeout: 30_000 },
    async (file) => {
      expect(await consoleMessages(file, "console.error('payment failed')\n")).not.toEqual([])
      expect(
        await consoleMessages(
          file,
          "import { loggerFor } from '~/server/operations/logger.server'\nloggerFor('probe').error('payment failed')\n",
        ),
      ).toEqual([])
    },
  )

  it('leaves tests and the bench printing for the person who runs them', { timeout: 30_000 }, async () => {
    expect(await consoleMessages('bench/probe.ts', "console.log('figure')\n")).toEqual([])
    expect(await consoleMessages('tests/integration/probe.test.ts', "console.log('figure')\n")).toEqual([])
  })
})

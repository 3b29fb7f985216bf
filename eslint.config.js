// Lint rules that hold the rooms described in docs/architecture.md ("The lint zones"): each layer may
// import only what sits below it, a database or mail driver only from its own server module, and no
// module imports itself through a cycle. tests/unit/lint-zones.test.ts proves each zone refuses a bad import.
import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const DATABASE_CLIENT = {
  group: ['~/server/db.server', '**/db.server', '~/generated/*', '**/generated/prisma/*'],
  message: 'Routes, components, content and domain code reach the database through a server module.',
}
/** Each driver belongs to one server module (its room's gate); a type import is no dependency. */
const DRIVERS = {
  pg: {
    group: ['pg'],
    message: 'pg is opened by app/server/db.server.ts (and the two raw-connection modules named in eslint.config.js).',
  },
  pgBoss: {
    group: ['pg-boss'],
    message: 'pg-boss is started by app/server/jobs/queue.server.ts: queue work through it.',
  },
  prisma: {
    group: ['@prisma/*'],
    message: 'The Prisma client is built by app/server/db.server.ts: import prisma from there.',
  },
  nodemailer: { group: ['nodemailer'], message: 'Mail goes through app/server/messaging/mail.server.ts.' },
  zip: {
    group: ['yazl', 'yauzl'],
    message: 'Zips are written and read by app/server/research/audit-pack-zip.server.ts.',
  },
}
const driversExcept = (...allowed) =>
  Object.entries(DRIVERS)
    .filter(([name]) => !allowed.includes(name))
    .map(([, pattern]) => ({ ...pattern, allowTypeImports: true }))
const SERVER_CODE = {
  group: ['~/server/*', '**/server/*', '../server/*', '**/*.server', '**/*.server.*'],
  message: 'Only routes and server modules import server code; this layer runs in the browser too.',
}
const ROUTES_AND_COMPONENTS = {
  group: ['~/routes/*', '**/routes/*', '~/components/*', '**/components/*', '~/root', '**/root'],
  message: 'Server and domain code sits below the pages: it never imports a route or a component.',
}
const DEMO_ONLY = {
  group: ['~/demo/*', '**/demo/*'],
  message: 'Demo-only code is registered from app/demo and loaded dynamically; production modules may not import it.',
}
const NODE_BUILTINS = { regex: '^node:', message: 'app/domain does no I/O.' }
/** app/domain is pure: other domain modules, zod and Conform's zod adapter, nothing with side effects. */
const DOMAIN_ONLY = {
  regex: '^(?!(\\./|\\.\\./|~/domain/|zod$|zod/|@conform-to/zod/))',
  message: 'app/domain imports only other domain modules and zod: no I/O, no side effects.',
}
const zone = (...patterns) => ({
  'no-restricted-imports': 'off',
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
})

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'build/',
      '.react-router/',
      'app/generated/',
      '.data/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      'bench/floor/build/',
      'bench/floor/.react-router/',
      'public/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver': { typescript: { project: './tsconfig.json' }, node: true },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
      // A variable declared before a shutdown hook that reads it and assigned once later is not a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Everything the store runs logs through app/server/operations/logger.server.ts (JSON lines with
    // redaction; docs/operations.md): a console call there is an error. Tests, the bench and the
    // one-off tools (seed-large, the CI smoke scripts) print for the person running them.
    files: [
      'app/**',
      'server/**',
      'prisma/seed.ts',
      'scripts/start.ts',
      'scripts/dev.ts',
      'scripts/environment.ts',
      'scripts/graceful-shutdown.ts',
      'scripts/start.mjs',
      'scripts/build-if-needed.mjs',
      'scripts/migrate.ts',
      'scripts/seed.ts',
      'scripts/db-backup.ts',
      'scripts/db-restore.ts',
      'scripts/db/**',
    ],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrolling region takes focus so that keyboard users can scroll it (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
    },
  },
  {
    files: ['app/components/**', 'app/content/**'],
    rules: zone(SERVER_CODE, DATABASE_CLIENT, DEMO_ONLY, ...driversExcept()),
  },
  {
    files: ['app/routes/**', 'app/root.tsx', 'app/entry.*'],
    rules: zone(DATABASE_CLIENT, DEMO_ONLY, ...driversExcept()),
  },
  {
    // Demo-only route modules are route modules: they reach the database through server modules too.
    files: ['app/demo/**'],
    rules: zone(DATABASE_CLIENT, ...driversExcept()),
  },
  {
    files: ['app/server/**', 'server/**'],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept()),
  },
  // The driver's own modules.
  {
    files: ['app/server/db.server.ts'],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept('pg', 'prisma')),
  },
  {
    // LISTEN for cache invalidation, and cursors for the million-row export and the research audit pack: one raw connection each.
    files: [
      'app/server/cache-sync.server.ts',
      'app/server/admin/payments-export.server.ts',
      'app/server/research/audit-pack.server.ts',
    ],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept('pg')),
  },
  {
    files: ['app/server/jobs/queue.server.ts'],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept('pgBoss')),
  },
  {
    files: ['app/server/messaging/mail.server.ts'],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept('nodemailer')),
  },
  {
    files: ['app/server/research/audit-pack-zip.server.ts'],
    rules: zone(DEMO_ONLY, ROUTES_AND_COMPONENTS, ...driversExcept('zip')),
  },
  {
    files: ['app/domain/**'],
    rules: zone(DOMAIN_ONLY, DATABASE_CLIENT, SERVER_CODE, DEMO_ONLY, ROUTES_AND_COMPONENTS, NODE_BUILTINS),
  },
)

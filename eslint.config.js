// Lint rules that hold the layering described in docs/architecture.md: routes and components do not
// touch the database, app/domain does no I/O, production code does not import demo-only code, and
// no module imports itself through a cycle.
import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const DATABASE_CLIENT = {
  group: ['~/server/db.server', '**/db.server', '~/generated/*', '**/generated/prisma/*'],
  message: 'Routes, components and domain code reach the database through a server module.',
}
const SERVER_CODE = {
  group: ['~/server/*', '**/server/*', '../server/*'],
  message: 'app/domain holds pure rules shared by server and browser: no server code.',
}
const DEMO_ONLY = {
  group: ['~/demo/*', '**/demo/*'],
  message: 'Demo-only code is registered from app/demo and loaded dynamically; production modules may not import it.',
}

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
    files: ['app/routes/**', 'app/components/**', 'app/root.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DATABASE_CLIENT, DEMO_ONLY] }] },
  },
  {
    files: ['app/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [DATABASE_CLIENT, SERVER_CODE, DEMO_ONLY, { regex: '^node:', message: 'app/domain does no I/O.' }],
        },
      ],
    },
  },
  {
    files: ['app/server/**', 'server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DEMO_ONLY] }] },
  },
  {
    // Demo-only route modules are route modules: they reach the database through server modules too.
    files: ['app/demo/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DATABASE_CLIENT] }] },
  },
)

import type { TestProject } from 'vitest/node'
import { freePorts } from './ports'
import { createMigratedTemplate, dropDatabase, provideTestServer } from './test-database'

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { serverUrl: string; template: string }
  }
}

/** Once per run: a database server and a migrated template that each test file copies. */
export default async function setup(project: TestProject) {
  const server = await provideTestServer({ dataDir: '.data/postgres-test', port: (await freePorts(1))[0]! })
  const template = await createMigratedTemplate(server.url)
  project.provide('testDatabase', { serverUrl: server.url, template })
  return async () => {
    await dropDatabase(server.url, template)
    await server.stop()
  }
}

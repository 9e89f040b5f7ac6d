/**
 * vitest global setup: one PostgreSQL server for the run and a migrated template database that
 * each test file clones (createTestDatabase), so files run in parallel without sharing state.
 * The server logic (DATABASE_URL or embedded) is shared with the Playwright setup.
 */
import type { TestProject } from 'vitest/node';
import { startTestPgServer } from './pg-server';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplateDb: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startTestPgServer();
  project.provide('pgServerUrl', server.serverUrl);
  project.provide('pgTemplateDb', server.template);
  return () => server.stop();
}

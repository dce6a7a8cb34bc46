import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

/** The owner's key of every test server. */
export const TEST_KEY = 'egk_test_owner_key_0123456789abcdefghijklmnop';

declare module 'vitest' {
  export interface ProvidedContext {
    engramUrl: string;
    engramKey: string;
    engramStore: string;
    /** The PostgreSQL database of the postgres project's server. */
    engramDatabaseUrl: string;
  }
}

/** Starts one real server on a free port for a whole test project; tests use a fresh space each. */
export async function startTestServer(project: TestProject, env: Record<string, string>) {
  // Pages in tests are served from 127.0.0.1, so the shared server reads private addresses; pages.test.ts checks the guard on.
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_BOOTSTRAP_KEY: TEST_KEY,
    ENGRAM_POLL_MS: '50',
    ENGRAM_ROLLOVER_MS: '1000',
    ENGRAM_ALLOW_PRIVATE_URLS: '1',
    ENGRAM_ACCOUNT_RPM: '100000',
    ...env,
  });
  const server = await startServer(config);
  project.provide('engramUrl', server.url);
  project.provide('engramKey', TEST_KEY);
  project.provide('engramStore', server.store.kind);
  return server;
}

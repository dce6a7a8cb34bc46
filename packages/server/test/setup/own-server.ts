import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import type { RunningServer, StartOptions } from '../../src/server.js';
import { createTestDatabase } from './postgres.js';

/** A server of a test file's own (its own clock or plans), on the store of the project running it. */
export async function startOwnServer(
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<{ server: RunningServer; key: string; close(): Promise<void> }> {
  const key = `egk_own_${Math.random().toString(36).slice(2)}_0123456789abcdef`;
  const database = inject('engramStore') === 'postgres' ? await createTestDatabase() : null;
  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_BOOTSTRAP_KEY: key,
      ENGRAM_POLL_MS: '20',
      ...(database ? { DATABASE_URL: database.url } : { ENGRAM_DATA_DIR: 'memory://' }),
      ...env,
    }),
    options,
  );
  return {
    server,
    key,
    async close() {
      await server.close();
      await database?.drop();
    },
  };
}

import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RunningServer, StartOptions } from '../../src/server.js';
import { startServer } from '../../src/server.js';
import type { Store } from '../../src/store/database.js';
import { openStore } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
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
      ENGRAM_ROLLOVER_MS: '500',
      ENGRAM_PERIODIC_TICK_MS: '100',
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

/** A migrated store of a test file's own, of the project running it: an in-memory PGlite, or a fresh PostgreSQL database. */
export async function openOwnStore(): Promise<{ store: Store; close(): Promise<void> }> {
  const database = inject('engramStore') === 'postgres' ? await createTestDatabase() : null;
  const store = database
    ? await openStore({ databaseUrl: database.url, dataDir: '' })
    : await openStore({ databaseUrl: null, dataDir: 'memory://' });
  await migrate(store.db);
  return {
    store,
    async close() {
      await store.close();
      await database?.drop();
    },
  };
}

import { loadConfig, startServer } from '@engram/server';
import type { RunningServer } from '@engram/server';
import { Engram } from '../../src/index.js';
import type { ClientOptions } from '../../src/index.js';

/** The owner's account key of every test server. */
export const TEST_KEY = 'egk_client_test_key_0123456789abcdefghijklmnop';

/** A real Engram on a free port, with an in-memory store and quick workers. */
export function startTestServer(): Promise<RunningServer> {
  return startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: TEST_KEY, ENGRAM_POLL_MS: '50' }),
  );
}

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${crypto.randomUUID()}`;

/** A client of the test server that logs nothing unless asked to. */
export const clientOf = (server: RunningServer, options: ClientOptions = {}) =>
  new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, ...options });

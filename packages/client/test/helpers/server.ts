import { inject } from 'vitest';
import type { ClientOptions } from '../../src/index.js';
import { Engram } from '../../src/index.js';

/** The owner's account key of the test server (test/setup.ts starts it once for the whole run). */
export const TEST_KEY = 'egk_client_test_key_0123456789abcdefghijklmnop';

declare module 'vitest' {
  export interface ProvidedContext {
    clientServerUrl: string;
  }
}

/** The real Engram the client tests talk to. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** The shared real server (one per run; every test uses its own space). */
export async function startTestServer(): Promise<TestServer> {
  return { url: inject('clientServerUrl'), close: async () => {} };
}

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${crypto.randomUUID()}`;

/** A client of the test server that logs nothing unless asked to. */
export const clientOf = (server: TestServer, options: ClientOptions = {}) =>
  new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, ...options });

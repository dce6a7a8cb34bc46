import { loadConfig, startServer } from '@engram/server';
import type { TestProject } from 'vitest/node';

/** The owner's key of the Engram this example's test talks to. */
export const CHAT_TEST_KEY = 'egk_chat_example_test_key_0123456789abcdefghij';

declare module 'vitest' {
  export interface ProvidedContext {
    chatEngramUrl: string;
  }
}

/** One real Engram on a free port, with an in-memory store, for this example's test. */
export default async function setup(project: TestProject) {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: CHAT_TEST_KEY, ENGRAM_POLL_MS: '50' }),
  );
  project.provide('chatEngramUrl', server.url);
  return () => server.close();
}

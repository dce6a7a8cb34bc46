import { loadConfig, startServer } from '@engram/server';
import type { TestProject } from 'vitest/node';

/** The owner's key of the Engram this example's test talks to. */
export const LLAMAINDEX_CHAT_TEST_KEY = 'egk_llamaindex_chat_example_key_0123456789abcd';

declare module 'vitest' {
  export interface ProvidedContext {
    llamaindexChatEngramUrl: string;
  }
}

/** One real Engram on a free port, with an in-memory store, for this example's test. */
export default async function setup(project: TestProject) {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: LLAMAINDEX_CHAT_TEST_KEY, ENGRAM_POLL_MS: '50' }),
  );
  project.provide('llamaindexChatEngramUrl', server.url);
  return () => server.close();
}

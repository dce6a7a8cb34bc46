import { loadConfig, startServer } from '@engram/server';
import type { TestProject } from 'vitest/node';

/** The owner's key of the Engram this example's test talks to. */
export const RAG_TEST_KEY = 'egk_langchain_rag_example_key_0123456789abcdef';

declare module 'vitest' {
  export interface ProvidedContext {
    langchainRagEngramUrl: string;
  }
}

/** One real Engram on a free port, with an in-memory store, for this example's test. */
export default async function setup(project: TestProject) {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: RAG_TEST_KEY, ENGRAM_POLL_MS: '50' }),
  );
  project.provide('langchainRagEngramUrl', server.url);
  return () => server.close();
}

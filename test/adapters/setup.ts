import { loadConfig, startServer } from '@engram/server';
import type { TestProject } from 'vitest/node';
import { TEST_KEY } from './server.js';

/** One real Engram on a free port, with an in-memory store, for every adapter package's test file. */
export default async function setup(project: TestProject) {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: TEST_KEY, ENGRAM_POLL_MS: '50' }),
  );
  project.provide('adaptersServerUrl', server.url);
  return () => server.close();
}

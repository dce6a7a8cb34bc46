import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestServer } from './start.js';

/** The API suite over the embedded store, in a fresh data directory. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'engram-test-'));
  const server = await startTestServer(project, { ENGRAM_DATA_DIR: dataDir });
  return async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}

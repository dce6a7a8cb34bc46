import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The bootstrap key of the servers the scale benches start on a copy of a filled store. */
export const SCALE_KEY = 'egk_bench_scale_0123456789abcdefghijklmnop';

/**
 * A build's server (`distPath`: its `dist` directory) on a fresh copy of a filled store
 * (`serve-memory.ts fill`), in this process, with no workers and a recall cache that holds the
 * whole space: what the benches comparing builds on one store start. `env` adds or overrides
 * settings; `remove` deletes the copy once the server is closed.
 */
export async function serveCopy(distPath: string, store: string, name: string, env: Record<string, string> = {}) {
  const dist = resolve(distPath);
  const { loadConfig } = (await import(`${dist}/config.js`)) as typeof import('../../packages/server/dist/config.js');
  const { startServer } = (await import(`${dist}/server.js`)) as typeof import('../../packages/server/dist/server.js');
  const work = await mkdtemp(join(tmpdir(), `engram-${name}-`));
  await cp(store, work, { recursive: true });
  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_HOST: '127.0.0.1',
      ENGRAM_BOOTSTRAP_KEY: SCALE_KEY,
      ENGRAM_WORKERS: '0',
      ENGRAM_DATA_DIR: work,
      ENGRAM_RECALL_CACHE_MEMORIES: '200000',
      ...env,
    }),
    { announceKey: () => {} },
  );
  return { server, dist, remove: () => rm(work, { recursive: true, force: true }) };
}

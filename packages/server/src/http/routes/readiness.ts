import { Hono } from 'hono';
import { pingQueue, pingStore } from '../../store/readiness.js';
import type { AppDeps, AppEnv } from '../context.js';

/** Longest a readiness check waits for the store, in milliseconds. */
const CHECK_TIMEOUT_MS = 2_000;

/** One check's outcome. */
interface Check {
  ok: boolean;
  error?: string;
}

async function check(run: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /readyz` (no key): whether this process should be sent traffic. 200 when the store
 * and the learning queue answer; 503 when either does not, or while the process stops.
 */
export function readinessRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/readyz', async (c) => {
    const stopping = deps.stopping?.() ?? false;
    const [store, queue] = await Promise.all([check(() => pingStore(deps.db)), check(() => pingQueue(deps.db))]);
    const ok = !stopping && store.ok && queue.ok;
    return c.json({ ok, stopping, store, queue }, ok ? 200 : 503);
  });
  return app;
}

import { KEY_STARTS_WITH_CHARS } from '@engram/protocol';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Db } from '../store/database.js';
import type { RequestLogEntry } from '../store/request-log-repository.js';
import { deleteOldRequests, insertRequestLog } from '../store/request-log-repository.js';
import type { AppEnv } from './env.js';

const HOUR_MS = 3_600_000;

/** Options of the request log's buffer. */
export interface RequestLogOptions {
  /** Days a call is kept (ENGRAM_REQUEST_LOG_DAYS). */
  days: number;
  /** Flush at least this often, in milliseconds. */
  flushEveryMs?: number;
  /** Flush at once when this many calls wait. */
  batchRows?: number;
}

/**
 * Buffers answered calls in memory and writes them in batches (one multi-row insert a second
 * or every 200 calls), so that logging never adds a write to a request's own path. The
 * flush loop also deletes calls past the retention, at most once an hour.
 */
export class RequestLog {
  private pending: RequestLogEntry[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private lastPruned = 0;
  private closed = false;
  private readonly flushEveryMs: number;
  private readonly batchRows: number;

  constructor(
    private readonly db: Db,
    private readonly options: RequestLogOptions,
  ) {
    this.flushEveryMs = options.flushEveryMs ?? 1_000;
    this.batchRows = options.batchRows ?? 200;
  }

  /** Queues one call; it is written by the next flush. */
  add(entry: RequestLogEntry): void {
    if (this.closed) return;
    this.pending.push(entry);
    if (this.pending.length >= this.batchRows) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.flushEveryMs);
      this.timer.unref();
    }
  }

  /** Writes every queued call (and prunes old ones when due); resolves once they are stored. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    // Flushes run one after another, so that a reader who awaits one sees every earlier call.
    this.flushing = this.flushing.then(async () => {
      try {
        await insertRequestLog(this.db, batch);
        if (Date.now() - this.lastPruned >= HOUR_MS) {
          this.lastPruned = Date.now();
          await deleteOldRequests(this.db, this.options.days);
        }
      } catch (error) {
        // The log is a convenience: losing a batch must never break the API.
        console.error('[engram] request log:', (error as Error).message);
      }
    });
    return this.flushing;
  }

  /** Flushes what is queued and stops taking calls. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    this.closed = true;
  }
}

/** The route pattern Hono matched for the call (`/v1/memories/:memory_id`), or null when none did. */
function matchedRoute(c: Context<AppEnv>): string | null {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index--) {
    const route = routes[index]!;
    if (route.method !== 'ALL' && !route.path.endsWith('*')) return route.path;
  }
  return null;
}

/**
 * Records every authenticated /v1 call once it is answered: method, route pattern, status,
 * space, the key's first characters, request id, duration and error type. Never a body or a key.
 */
export const requestLogger = ({ log }: { log: RequestLog }): MiddlewareHandler<AppEnv> =>
  async function requestLogger(c, next) {
    const started = performance.now();
    await next();
    const caller = c.get('caller');
    if (!caller) return; // unauthenticated calls name no account
    const key = /^Bearer\s+(\S+)/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    log.add({
      accountId: caller.accountId,
      at: new Date(),
      method: c.req.method,
      route: matchedRoute(c) ?? 'unmatched',
      status: c.res.status,
      space: c.get('space') ?? caller.limitedTo ?? null,
      keyPrefix: key.slice(0, KEY_STARTS_WITH_CHARS),
      requestId: c.get('requestId'),
      durationMs: Math.round(performance.now() - started),
      errorType: c.get('errorType') ?? null,
    });
  };

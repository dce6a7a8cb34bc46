import { sql } from 'kysely';
import type { Db } from './database.js';
import { primaryOf, requestsQuietFor } from './database.js';

/**
 * How long a stored answer to an Idempotency-Key is replayed: an older one is taken over by the
 * next request with its key, and the hourly clean-up (once per cluster) deletes it.
 */
export const IDEMPOTENCY_HOURS = 24;

/**
 * Deletes stored idempotent answers older than a day, periodic-run rows older than a week, and
 * the record of which memories a space's versions changed older than an hour (copies of search
 * indexes older than half an hour are rebuilt whole: store/memory-index.ts).
 */
export async function cleanUp(db: Db): Promise<{ idempotencyKeys: number; periodicRuns: number; memoryChanges: number }> {
  const keys = await sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`.execute(db);
  const runs = await sql`delete from periodic_runs where started_at < now() - interval '7 days'`.execute(db);
  const changes = await sql`delete from memory_changes where at < now() - interval '1 hour'`.execute(db);
  return {
    idempotencyKeys: Number(keys.numAffectedRows ?? 0),
    periodicRuns: Number(runs.numAffectedRows ?? 0),
    memoryChanges: Number(changes.numAffectedRows ?? 0),
  };
}

/**
 * PostgreSQL's autovacuum thresholds: a table is analyzed once this many rows plus this share of
 * its rows changed since its last ANALYZE, and vacuumed once as many rows plus twice the share
 * are dead.
 */
const ANALYZE_BASE_ROWS = 50;
const ANALYZE_SHARE = 0.1;
const VACUUM_SHARE = 0.2;

/** Since when each store's statistics have waited for requests to go quiet (Date.now()). */
const waitingSince = new WeakMap<Db, number>();

/**
 * What autovacuum does on PostgreSQL, for a store where it does not run: the embedded store
 * (PGlite runs no background workers) and a PostgreSQL server with `autovacuum = off` (some
 * CI and managed setups). ANALYZE each table whose rows changed by more than 50 + 10 % since its
 * last ANALYZE, and VACUUM one with more than 50 + 20 % dead rows. Without statistics the planner
 * guesses sizes, and at 100k memories a space its guesses made learning's statements and recall's
 * full-text reads scan the whole space. The job queue is kept too (its churn leaves dead rows):
 * analyzing it between two bursts once stalled learning, but the cause was the claim's plan
 * (store/queue-repository.ts, `claimJob`), not the statistics. On a PostgreSQL server whose
 * autovacuum runs (`options.store` 'postgres' and the setting on), it does nothing. Returns the tables it analyzed.
 */
export async function keepStatistics(
  db: Db,
  options: {
    store: 'pglite' | 'postgres';
    /**
     * Waits for a quiet moment (the periodic job): on the embedded store, whose one connection a
     * VACUUM or ANALYZE holds for up to a second at 100k memories, each table waits until requests
     * have left the connection alone for `quietMs`, unless that wait has lasted `maxWaitMs`.
     */
    quiet?: { quietMs: number; maxWaitMs: number };
  },
): Promise<string[]> {
  // PGlite's `autovacuum` setting reads on, but it has no worker to run it.
  if (options.store === 'postgres') {
    const { rows } = await sql<{ on: boolean }>`select current_setting('autovacuum')::boolean as on`.execute(db);
    if (rows[0]?.on) return [];
  }
  const waiting = primaryOf(db);
  /** Whether a table may be kept now: requests are quiet, or have kept it waiting long enough. */
  const mayRun = () => {
    const { quiet } = options;
    if (!quiet || requestsQuietFor(db) >= quiet.quietMs) return true;
    const since = waitingSince.get(waiting) ?? Date.now();
    waitingSince.set(waiting, since);
    return Date.now() - since >= quiet.maxWaitMs;
  };
  const { rows } = await sql<{ table: string; analyze: boolean; vacuum: boolean }>`
    select relname as table,
      n_mod_since_analyze > ${ANALYZE_BASE_ROWS}::float8 + ${ANALYZE_SHARE}::float8 * n_live_tup as analyze,
      n_dead_tup > ${ANALYZE_BASE_ROWS}::float8 + ${VACUUM_SHARE}::float8 * n_live_tup as vacuum
    from pg_stat_user_tables where schemaname = 'public'
    order by relname`.execute(db);
  const due = rows.filter((row) => row.analyze || row.vacuum);
  const analyzed: string[] = [];
  for (const row of due) {
    // The next run (a minute later) takes up what is left.
    if (!mayRun()) break;
    await sql`${sql.raw(row.vacuum ? 'vacuum (analyze)' : 'analyze')} ${sql.table(row.table)}`.execute(db);
    analyzed.push(row.table);
  }
  if (analyzed.length === due.length) waitingSince.delete(waiting);
  return analyzed;
}

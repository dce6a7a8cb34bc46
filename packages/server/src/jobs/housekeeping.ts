import { sql } from 'kysely';
import { runDueHealthChecks } from '../brief/health.js';
import type { Config } from '../config.js';
import { releaseAllWaiting } from '../meter/metering.js';
import type { Db } from '../store/database.js';
import type { PeriodicJob } from './periodic.js';

/** How long a stored answer to an Idempotency-Key is replayed. */
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
 * The periodic jobs every Engram runs, once per cluster: the usage roll-over (sources that
 * waited for the plan are queued when a new period or extra learning allows them; old rate
 * counters are swept), the hourly clean-up, and the nightly memory test.
 */
export function housekeepingJobs(config: Pick<Config, 'rolloverMs'>): PeriodicJob[] {
  return [
    { name: 'usage-roll-over', everyMs: config.rolloverMs, run: ({ db, config, now }) => releaseAllWaiting({ db, config, now }) },
    { name: 'clean-up', everyMs: 60 * 60_000, run: ({ db }) => cleanUp(db) },
    // Each space's nightly test is claimed by a row of its own (brief/health.ts): looking every minute runs it once a night.
    {
      name: 'memory-health',
      everyMs: 60_000,
      run: ({ db, config, now, model }) =>
        runDueHealthChecks({ db, model, schedule: { time: config.healthTime, timeZone: config.healthTimeZone } }, now()),
    },
  ];
}

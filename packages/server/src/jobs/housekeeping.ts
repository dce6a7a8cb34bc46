import { runDueHealthChecks } from '../brief/health.js';
import type { Config } from '../config.js';
import { releaseAllWaiting } from '../meter/metering.js';
import { cleanUp, keepStatistics } from '../store/housekeeping-repository.js';
import type { PeriodicJob } from './periodic.js';

export { cleanUp, IDEMPOTENCY_HOURS } from '../store/housekeeping-repository.js';

/**
 * When the periodic statistics job keeps a table on the embedded store: once requests have left
 * its one connection alone for a second (a VACUUM of a 100k-memory space holds it about a
 * second), or once it has waited ten minutes for that.
 */
export const STATISTICS_QUIET = { quietMs: 1_000, maxWaitMs: 10 * 60_000 };

/**
 * The periodic jobs every Engram runs, once per cluster: the usage roll-over (sources that
 * waited for the plan are queued when a new period or extra learning allows them; old rate
 * counters are swept), the hourly clean-up, the nightly memory test, and the planner's statistics
 * kept as autovacuum would keep them wherever it does not run (the embedded store, and a
 * PostgreSQL server with autovacuum off).
 */
export function housekeepingJobs(config: Pick<Config, 'rolloverMs' | 'databaseUrl'>): PeriodicJob[] {
  const store = config.databaseUrl ? 'postgres' : 'pglite';
  return [
    // A quiet second of the embedded store's connection, or at most ten minutes' wait (store/housekeeping-repository.ts).
    { name: 'statistics', everyMs: 60_000, run: ({ db }) => keepStatistics(db, { store, quiet: STATISTICS_QUIET }) },
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

import { sql } from 'kysely';
import type { Db } from './database.js';

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

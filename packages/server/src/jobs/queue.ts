import { sql } from 'kysely';
import type { Db } from '../store/database.js';

/** A claimed learning job. */
export interface Job {
  id: number;
  accountId: number;
  space: string;
  sourceId: string;
  attempts: number;
  maxAttempts: number;
}

/** How long a claimed job stays with its worker before another may take it (a crashed worker's lease runs out). */
export const LEASE_SECONDS = 300;

/**
 * Claims the next due job, skipping those other workers hold, and marks its source
 * as learning. Returns null when nothing is due.
 */
export async function claimJob(db: Db, workerId: string): Promise<Job | null> {
  return db.transaction().execute(async (transaction) => {
    const { rows } = await sql<any>`
      update jobs set locked_at = now(), locked_by = ${workerId}, attempts = attempts + 1
      where id = (
        select id from jobs
        where run_at <= now() and (locked_at is null or locked_at < now() - make_interval(secs => ${LEASE_SECONDS}))
        order by run_at, id
        for update skip locked
        limit 1
      )
      returning id, account_id, space, source_id, attempts, max_attempts`.execute(transaction);
    const row = rows[0];
    if (!row) return null;
    await sql`update sources set status = 'learning' where id = ${row.source_id} and status in ('queued', 'learning')`.execute(transaction);
    return {
      id: row.id,
      accountId: row.account_id,
      space: row.space,
      sourceId: row.source_id,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    };
  });
}

/** Removes a finished job within the caller's transaction (which also stored what was learned). */
export async function completeJob(transaction: Db, job: Job): Promise<void> {
  await sql`delete from jobs where id = ${job.id}`.execute(transaction);
}

/**
 * Records a failed attempt. The job runs again after an exponential backoff
 * (2^attempts seconds, at most an hour) until its attempts are spent; then the source fails.
 */
export async function failJob(db: Db, job: Job, error: Error, errorType = 'learning_failed'): Promise<void> {
  const message = error.message.slice(0, 1_000);
  await db.transaction().execute(async (transaction) => {
    if (job.attempts >= job.maxAttempts) {
      await sql`delete from jobs where id = ${job.id}`.execute(transaction);
      await sql`
        update sources set status = 'failed', error = ${JSON.stringify({ type: errorType, message })}::jsonb
        where id = ${job.sourceId}`.execute(transaction);
      return;
    }
    await sql`
      update jobs set locked_at = null, locked_by = null, last_error = ${message},
        run_at = now() + make_interval(secs => least(power(2, attempts), 3600))
      where id = ${job.id}`.execute(transaction);
    await sql`update sources set status = 'queued' where id = ${job.sourceId} and status = 'learning'`.execute(transaction);
  });
}

/** Fails a job at once, without retries (the input itself cannot be learned). */
export async function failJobNow(db: Db, job: Job, error: { type: string; message: string }): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await sql`delete from jobs where id = ${job.id}`.execute(transaction);
    await sql`update sources set status = 'failed', error = ${JSON.stringify(error)}::jsonb where id = ${job.sourceId}`.execute(transaction);
  });
}

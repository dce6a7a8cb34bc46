import { sql } from 'kysely';
import type { Db, Row } from './database.js';

/** A claimed learning job. */
export interface Job {
  id: number;
  accountId: number;
  space: string;
  sourceId: string;
  attempts: number;
  maxAttempts: number;
  /** The worker holding it; only that worker's writes count while it holds the lease. */
  lockedBy: string;
}

/**
 * How long a claimed job stays with its worker unless the worker renews it (ENGRAM_LEASE_SECONDS).
 * A worker renews it every third of that while it works, so a dead worker's job is taken
 * over at most this long after its last renewal.
 */
export const DEFAULT_LEASE_SECONDS = 30;

/** Jobs claimed before leases had an end (locked_until null) keep the old five-minute lease. */
const LEGACY_LEASE_SECONDS = 300;

/** What a claimed job's source is told when its last attempt died with its worker. */
const LOST_WORKER = 'The worker learning this source stopped before it finished';

/**
 * Claims the next due job, skipping those other workers hold and those whose lease still
 * runs, and marks its source as learning. A job found on its last attempt after its worker
 * died fails its source there and then (its error kept), and the next job is looked at.
 * Returns null when nothing is due.
 *
 * The due job is picked in a materialized CTE, run once. As a subquery joined to the update,
 * the planner could rescan it for each row of the queue (a nested loop, chosen when the
 * queue's statistics say it is empty), and each rescan skipped the row it had just locked and
 * locked another: one claim took every queued job and ran only the first, and the others
 * waited out their lease, an attempt spent each time, until their sources failed.
 *
 * The job is taken in one transaction and its source marked in a second. Everything else that
 * touches both takes the source first and the job after (a rewrite or a deleted source
 * replaces the job, an erased space drops it, a learning batch completes it); a claim that held
 * the job while it waited for the source would close the circle, and PostgreSQL would break
 * the deadlock by failing one of them. The second transaction takes the source, then checks
 * the job is still this worker's: one replaced in between is left to whoever replaced it.
 */
export async function claimJob(db: Db, workerId: string, leaseSeconds = DEFAULT_LEASE_SECONDS): Promise<Job | null> {
  for (;;) {
    const { rows } = await sql<
      Pick<Row<'jobs'>, 'id' | 'account_id' | 'space' | 'source_id' | 'attempts' | 'max_attempts' | 'last_error'> & {
        taken_over: boolean;
      }
    >`
      with due as materialized (
        select id, locked_at is not null as taken_over from jobs
        where run_at <= now() and (locked_at is null
          or coalesce(locked_until, locked_at + make_interval(secs => ${LEGACY_LEASE_SECONDS})) < now())
        order by run_at, id
        for update skip locked
        limit 1)
      update jobs j set locked_at = now(), locked_by = ${workerId}, attempts = j.attempts + 1,
        locked_until = now() + make_interval(secs => ${leaseSeconds}),
        last_error = case when j.locked_at is not null then ${LOST_WORKER} else j.last_error end
      from due
      where j.id = due.id
      returning j.id, j.account_id, j.space, j.source_id, j.attempts, j.max_attempts, j.last_error, due.taken_over`.execute(db);
    const row = rows[0];
    if (!row) return null;
    const job: Job = {
      id: row.id,
      accountId: row.account_id,
      space: row.space,
      sourceId: row.source_id,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      lockedBy: workerId,
    };
    const outcome = await db.transaction().execute(async (transaction) => {
      if (!(await holdSource(transaction, job))) return 'gone' as const;
      if (job.attempts > job.maxAttempts) {
        // Its last attempt never reported (its worker or process died): no attempt is left to run.
        await sql`delete from jobs where id = ${job.id}`.execute(transaction);
        await sql`
          update sources set status = 'failed', attempts = ${job.maxAttempts},
            error = ${JSON.stringify({ type: 'internal_error', message: LOST_WORKER })}::jsonb
          where id = ${job.sourceId} and account_id = ${job.accountId}`.execute(transaction);
        return 'failed' as const;
      }
      await sql`
        update sources set status = 'learning', attempts = ${job.attempts}
        where id = ${job.sourceId} and account_id = ${job.accountId} and status in ('queued', 'learning')`.execute(transaction);
      return 'claimed' as const;
    });
    if (outcome === 'claimed') return job;
  }
}

/** Takes the job's source row within the caller's transaction, waiting for a writer holding it. */
async function lockSource(transaction: Db, job: Job): Promise<void> {
  await sql`select 1 from sources where account_id = ${job.accountId} and id = ${job.sourceId} for no key update`.execute(transaction);
}

/**
 * Takes the job's source row (waiting for a writer holding it), then tells whether the job is
 * still this worker's. Within the caller's transaction; the source comes first, as everywhere.
 */
async function holdSource(transaction: Db, job: Job): Promise<boolean> {
  await lockSource(transaction, job);
  const { rows } = await sql`select 1 from jobs where id = ${job.id} and locked_by = ${job.lockedBy}`.execute(transaction);
  return rows.length > 0;
}

/**
 * Pushes on the leases of the jobs a worker holds. Returns the ids it still holds (a job
 * missing from the answer was finished, deleted, or taken over after its lease ran out).
 */
export async function renewLeases(db: Db, workerId: string, jobIds: number[], leaseSeconds = DEFAULT_LEASE_SECONDS): Promise<number[]> {
  if (!jobIds.length) return [];
  const { rows } = await sql<{ id: number }>`
    update jobs set locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id = any(${jobIds}::int[]) and locked_by = ${workerId}
    returning id`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * Gives a claimed job back without counting the attempt (a worker stopping before it
 * finished): another worker may take it at once.
 */
export async function releaseJob(db: Db, job: Job): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    if (!(await holdSource(transaction, job))) return;
    const { rows } = await sql`
      update jobs set locked_at = null, locked_by = null, locked_until = null, attempts = greatest(attempts - 1, 0), run_at = now()
      where id = ${job.id} and locked_by = ${job.lockedBy} returning id`.execute(transaction);
    if (!rows.length) return;
    await sql`
      update sources set status = 'queued', attempts = greatest(attempts - 1, 0)
      where id = ${job.sourceId} and account_id = ${job.accountId} and status = 'learning'`.execute(transaction);
  });
}

/**
 * Gives back every claimed job at once. Only for a store one process owns (the embedded
 * store), at its start: whoever held a claim was this process before it stopped. The
 * attempt a crash cut short still counts, so a source that crashes the process every time
 * fails after its attempts instead of crashing it for ever.
 */
export async function releaseAllClaims(db: Db): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    const { rows } = await sql<{ source_id: string; account_id: number }>`
      update jobs set locked_at = null, locked_by = null, locked_until = null, last_error = coalesce(last_error, ${LOST_WORKER})
      where locked_at is not null returning source_id, account_id`.execute(transaction);
    for (const row of rows) {
      await sql`update sources set status = 'queued' where id = ${row.source_id} and account_id = ${row.account_id} and status = 'learning'`.execute(
        transaction,
      );
    }
    return rows.length;
  });
}

/** Removes a finished job within the caller's transaction (which also stored what was learned). */
export async function completeJob(transaction: Db, job: Job): Promise<void> {
  await sql`delete from jobs where id = ${job.id}`.execute(transaction);
}

/** What a source that could not be learned says: the cause (maybe the store's own words) stays in the log. */
export const LEARNING_FAILED_MESSAGE = 'This source could not be learned; the server log has the cause';

/**
 * Records a failed attempt. The job runs again after an exponential backoff
 * (2^attempts seconds, at most an hour) until its attempts are spent; then the source fails
 * with a documented error type (`internal_error` unless told), never the store's raw message.
 */
export async function failJob(db: Db, job: Job, error: Error, errorType = 'internal_error'): Promise<void> {
  const message = error.message.slice(0, 1_000);
  const shown = errorType === 'internal_error' ? LEARNING_FAILED_MESSAGE : message;
  await db.transaction().execute(async (transaction) => {
    if (!(await holdSource(transaction, job))) return;
    if (job.attempts >= job.maxAttempts) {
      // Only the job's holder fails it: a job given back or taken over is no longer this attempt's.
      const { rows } = await sql`delete from jobs where id = ${job.id} and locked_by = ${job.lockedBy} returning id`.execute(transaction);
      if (!rows.length) return;
      await sql`
        update sources set status = 'failed', error = ${JSON.stringify({ type: errorType, message: shown })}::jsonb
        where id = ${job.sourceId} and account_id = ${job.accountId}`.execute(transaction);
      return;
    }
    await sql`
      update jobs set locked_at = null, locked_by = null, locked_until = null, last_error = ${message},
        run_at = now() + make_interval(secs => least(power(2, attempts), 3600))
      where id = ${job.id} and locked_by = ${job.lockedBy}`.execute(transaction);
    await sql`update sources set status = 'queued' where id = ${job.sourceId} and account_id = ${job.accountId} and status = 'learning'`.execute(
      transaction,
    );
  });
}

/** Fails a job at once, without retries (the input itself cannot be learned). */
export async function failJobNow(db: Db, job: Job, error: { type: string; message: string }): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    // The source first, then the job, as everywhere (claimJob).
    await lockSource(transaction, job);
    await sql`delete from jobs where id = ${job.id}`.execute(transaction);
    await sql`
      update sources set status = 'failed', error = ${JSON.stringify(error)}::jsonb
      where id = ${job.sourceId} and account_id = ${job.accountId}`.execute(transaction);
  });
}

/**
 * Whether the job still stands, holding its source until the transaction ends. A file
 * rewritten or a source deleted while its text was being learned has lost this job (the
 * rewrite queued a new one): what the old text taught is then not stored, and the rewrite,
 * which locks the same source row, either waits for this batch and sees its memories, or
 * goes first and this batch stores nothing. A job whose lease ran out and was taken over by
 * another worker no longer stands for this one either.
 */
export async function jobStands(transaction: Db, job: Job): Promise<boolean> {
  // Two statements, each on one table: the queue may live apart from the sources (docs/citus.sql).
  const { rows: held } = await sql`select 1 from jobs where id = ${job.id} and locked_by = ${job.lockedBy}`.execute(transaction);
  if (!held.length) return false;
  const { rows } = await sql`
    select 1 from sources where account_id = ${job.accountId} and id = ${job.sourceId} for share`.execute(transaction);
  return rows.length > 0;
}

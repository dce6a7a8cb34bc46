import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { claimJob, failJob, releaseJob } from '../../src/store/queue-repository.js';
import { createTestDatabase } from '../setup/postgres.js';

// A rewrite, a deleted source or an erased space holds the source's row and then replaces or
// drops its job. A worker claiming that job at the same moment must not hold the job while it
// waits for the source: PostgreSQL would see the circle and fail one side (the API answered the
// rewrite 503 "the store was busy").
describe('claiming a job while a writer holds its source (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  let writer: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = await openStore({ databaseUrl: database.url, dataDir: 'memory://' });
    await migrate(store.db);
    writer = new pg.Client({ connectionString: database.url });
    watcher = new pg.Client({ connectionString: database.url });
    await writer.connect();
    await watcher.connect();
    await sql`insert into accounts (name) values ('claims')`.execute(store.db);
  }, 60_000);

  afterAll(async () => {
    await writer?.end();
    await watcher?.end();
    await store?.close();
    await database?.drop();
  });

  // Each test starts with an empty queue: a claim takes whatever is due.
  beforeEach(async () => {
    await sql`delete from jobs`.execute(store.db);
  });

  let sources = 0;
  /** A queued source with its job, as a save leaves them; gives the ids. */
  async function queued(): Promise<{ accountId: number; sourceId: string; jobId: number }> {
    const { rows: account } = await sql<{ id: number }>`select id from accounts where name = 'claims'`.execute(store.db);
    const accountId = account[0]!.id;
    const sourceId = `src_claim_${++sources}`;
    await sql`insert into spaces (account_id, name) values (${accountId}, 'claims') on conflict do nothing`.execute(store.db);
    await sql`
      insert into sources (id, account_id, space, kind, body, tokens, status)
      values (${sourceId}, ${accountId}, 'claims', 'note', 'Ines keeps bees.', 4, 'queued')`.execute(store.db);
    const { rows } = await sql<{ id: number }>`
      insert into jobs (account_id, space, source_id) values (${accountId}, 'claims', ${sourceId}) returning id`.execute(store.db);
    return { accountId, sourceId, jobId: rows[0]!.id };
  }

  /** Waits until some statement on the database waits for a lock (the claim has reached the writer's row). */
  async function someoneWaits(): Promise<void> {
    for (let tries = 0; tries < 500; tries++) {
      const { rows } = await watcher.query<{ waiting: number }>(
        "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0]!.waiting > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no statement came to wait for the writer');
  }

  it('lets a rewrite replace the job, then claims the new one', async () => {
    const { accountId, sourceId, jobId } = await queued();
    await writer.query('begin');
    await writer.query('select 1 from sources where account_id = $1 and id = $2 for update', [accountId, sourceId]);
    const claim = claimJob(store.db, 'worker-a');
    let replaced: number;
    try {
      await someoneWaits();
      // What a rewrite does once it holds the source: the old job goes, a new one comes.
      await writer.query('delete from jobs where source_id = $1', [sourceId]);
      const { rows } = await writer.query<{ id: number }>(
        "insert into jobs (account_id, space, source_id) values ($1, 'claims', $2) returning id",
        [accountId, sourceId],
      );
      replaced = rows[0]!.id;
      await writer.query('commit');
    } catch (error) {
      await writer.query('rollback');
      throw error;
    }
    const job = await claim;
    expect(replaced).not.toBe(jobId);
    expect(job).toMatchObject({ id: replaced, sourceId, attempts: 1, lockedBy: 'worker-a' });
    const { rows } = await sql<{ status: string; attempts: number }>`
      select status, attempts from sources where id = ${sourceId}`.execute(store.db);
    expect(rows[0]).toEqual({ status: 'learning', attempts: 1 });
  });

  it('lets an erase drop the job, and then finds nothing to claim', async () => {
    const { accountId, sourceId } = await queued();
    await writer.query('begin');
    await writer.query('select 1 from sources where account_id = $1 and id = $2 for update', [accountId, sourceId]);
    const claim = claimJob(store.db, 'worker-b');
    try {
      await someoneWaits();
      await writer.query('delete from sources where account_id = $1 and id = $2', [accountId, sourceId]);
      await writer.query('commit');
    } catch (error) {
      await writer.query('rollback');
      throw error;
    }
    expect(await claim).toBeNull();
    const { rows } = await sql<{ jobs: number }>`select count(*)::int as jobs from jobs`.execute(store.db);
    expect(rows[0]!.jobs).toBe(0);
  });

  it('gives back or fails only a job still its own, taking the source first', async () => {
    const { accountId, sourceId } = await queued();
    const job = (await claimJob(store.db, 'worker-c'))!;
    expect(job.sourceId).toBe(sourceId);
    // A rewrite replaced the job while it was learned, and another worker is learning the new one:
    // neither giving the old one back nor failing it touches the new one or the source.
    await sql`delete from jobs where source_id = ${sourceId}`.execute(store.db);
    await sql`
      insert into jobs (account_id, space, source_id, attempts, locked_at, locked_by, locked_until)
      values (${accountId}, 'claims', ${sourceId}, 1, now(), 'worker-d', now() + interval '30 seconds')`.execute(store.db);
    await releaseJob(store.db, job);
    await failJob(store.db, job, new Error('the old text could not be read'));
    const { rows } = await sql<{ status: string; attempts: number; last_error: string | null; locked_by: string | null }>`
      select s.status, s.attempts, j.last_error, j.locked_by from sources s join jobs j on j.source_id = s.id
      where s.id = ${sourceId}`.execute(store.db);
    expect(rows).toEqual([{ status: 'learning', attempts: 1, last_error: null, locked_by: 'worker-d' }]);
  });
});

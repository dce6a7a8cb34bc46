import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { keepStatistics } from './housekeeping-repository.js';
import { migrate } from './migrations.js';

describe('keepStatistics on the embedded store, which has no autovacuum', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
    await migrate(store.db);
    await keepStatistics(store.db, { store: 'pglite' });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  // A backend reports what it changed to the statistics at most once a second, when it next goes idle.
  const reported = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sql`select 1`.execute(store.db);
  };
  const statsOf = async (table: string) => {
    const { rows } = await sql<{ analyzed: boolean; dead: number }>`
      select last_analyze is not null as analyzed, n_dead_tup::int as dead from pg_stat_user_tables where relname = ${table}`.execute(
      store.db,
    );
    return rows[0];
  };

  it('analyzes a table once enough of it changed, as autovacuum would, and leaves it until it changes again', async () => {
    // A few rows are below the threshold (50 + 10 % of the table).
    await sql`insert into periodic_runs (name, slot, owner) select 'few', g::text, 'test' from generate_series(1, 20) g`.execute(store.db);
    await reported();
    expect(await keepStatistics(store.db, { store: 'pglite' })).toEqual([]);
    await sql`insert into periodic_runs (name, slot, owner) select 'many', g::text, 'test' from generate_series(1, 200) g`.execute(
      store.db,
    );
    await reported();
    expect(await keepStatistics(store.db, { store: 'pglite' })).toEqual(['periodic_runs']);
    expect(await statsOf('periodic_runs')).toMatchObject({ analyzed: true });
    expect(await keepStatistics(store.db, { store: 'pglite' })).toEqual([]);
  });

  it('waits, as the periodic job asks, until requests have left the one connection alone', async () => {
    await sql`insert into periodic_runs (name, slot, owner) select 'busy', g::text, 'test' from generate_series(1, 200) g`.execute(
      store.db,
    );
    // reported() ends with a request's statement: the connection is not quiet for a minute yet.
    await reported();
    const busy = { quietMs: 60_000, maxWaitMs: 60_000 };
    expect(await keepStatistics(store.background, { store: 'pglite', quiet: busy })).toEqual([]);
    expect(await statsOf('periodic_runs')).toMatchObject({ analyzed: true });
    const before = await sql<{ at: Date }>`select last_analyze as at from pg_stat_user_tables where relname = 'periodic_runs'`.execute(
      store.db,
    );
    // Waited long enough: it runs although requests keep coming.
    expect(await keepStatistics(store.background, { store: 'pglite', quiet: { quietMs: 60_000, maxWaitMs: 0 } })).toEqual([
      'periodic_runs',
    ]);
    const after = await sql<{ at: Date }>`select last_analyze as at from pg_stat_user_tables where relname = 'periodic_runs'`.execute(
      store.db,
    );
    expect(after.rows[0]!.at.getTime()).toBeGreaterThan(before.rows[0]!.at.getTime());
    await sql`insert into periodic_runs (name, slot, owner) select 'quiet', g::text, 'test' from generate_series(1, 200) g`.execute(
      store.db,
    );
    await reported();
    expect(await keepStatistics(store.background, { store: 'pglite', quiet: busy })).toEqual([]);
    // Quiet long enough (no wait asked for): it runs.
    expect(await keepStatistics(store.background, { store: 'pglite', quiet: { quietMs: 0, maxWaitMs: 60_000 } })).toEqual([
      'periodic_runs',
    ]);
    await sql`delete from periodic_runs where name in ('busy', 'quiet')`.execute(store.db);
    await reported();
    await keepStatistics(store.db, { store: 'pglite' });
  });

  it('vacuums a table with many dead rows', async () => {
    await sql`delete from periodic_runs where name = 'many'`.execute(store.db);
    await reported();
    expect((await statsOf('periodic_runs'))?.dead).toBe(200);
    expect(await keepStatistics(store.db, { store: 'pglite' })).toEqual(['periodic_runs']);
    await reported();
    expect((await statsOf('periodic_runs'))?.dead).toBe(0);
  });

  it('vacuums the job queue once its churn left enough dead rows', async () => {
    // Many jobs come and go (their sources aside: foreign keys are not checked meanwhile).
    await store.db.transaction().execute(async (transaction) => {
      await sql`set local session_replication_role = replica`.execute(transaction);
      await sql`insert into jobs (account_id, space, source_id) select 1, 'q', 'src_' || g from generate_series(1, 300) g`.execute(
        transaction,
      );
    });
    await sql`delete from jobs`.execute(store.db);
    await reported();
    expect((await statsOf('jobs'))?.dead).toBe(300);
    expect(await keepStatistics(store.db, { store: 'pglite' })).toContain('jobs');
    await reported();
    expect((await statsOf('jobs'))?.dead).toBe(0);
  });
});

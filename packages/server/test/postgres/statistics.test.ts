import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { keepStatistics } from '../../src/store/housekeeping-repository.js';
import { migrate } from '../../src/store/migrations.js';
import { createTestDatabase } from '../setup/postgres.js';

// On PostgreSQL the statistics job stands in for autovacuum only where the server does not run it
// (`autovacuum = off`, as on this machine's CI server): without statistics, the planner took a
// 100k-memory space for a few rows and read all of it for each fact learned.
describe('keepStatistics on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await openStore({ databaseUrl: database.url, dataDir: 'memory://' });
    await migrate(store.db);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('analyzes a changed table when the server runs no autovacuum, and leaves it to autovacuum when it does', async () => {
    const { rows } = await sql<{ on: boolean }>`select current_setting('autovacuum')::boolean as on`.execute(store.db);
    const autovacuum = rows[0]!.on;
    await sql`insert into periodic_runs (name, slot, owner) select 'many', g::text, 'test' from generate_series(1, 200) g`.execute(
      store.db,
    );
    // A backend reports what it changed to the statistics when it next goes idle, at most once a
    // second unless told to at once.
    await sql`select pg_stat_force_next_flush()`.execute(store.db);
    const analyzed = await keepStatistics(store.db, { store: 'postgres' });
    if (autovacuum) {
      expect(analyzed).toEqual([]);
    } else {
      expect(analyzed).toContain('periodic_runs');
      const { rows: stats } = await sql<{ analyzed: boolean }>`
        select last_analyze is not null as analyzed from pg_stat_user_tables where relname = 'periodic_runs'`.execute(store.db);
      expect(stats[0]?.analyzed).toBe(true);
      expect(await keepStatistics(store.db, { store: 'postgres' })).not.toContain('periodic_runs');
    }
  });
});

import { sql } from 'kysely';
import type { Db } from './database.js';

export { migrations } from './schema/index.js';
export type { Migration } from './schema/migration.js';

import { migrations } from './schema/index.js';

/** Applies every migration not yet applied, one transaction each, under an advisory lock so that several processes can start at once. */
export async function migrate(db: Db): Promise<number[]> {
  await db.transaction().execute(async (transaction) => {
    await sql`select pg_advisory_xact_lock(727274)`.execute(transaction);
    await sql`create table if not exists engram_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())`.execute(
      transaction,
    );
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction().execute(async (transaction) => {
      await sql`select pg_advisory_xact_lock(727274)`.execute(transaction);
      const { rows } = await sql`select 1 from engram_migrations where id = ${migration.id}`.execute(transaction);
      if (rows.length) return false;
      await migration.up(transaction);
      await sql`insert into engram_migrations (id, name) values (${migration.id}, ${migration.name})`.execute(transaction);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { Migration } from './migration.js';

/** The tables whose rows are each account's own, and so can be spread by account over many machines (docs/deploy.md, Citus). */
const OWN_ROWS = ['state_items', 'intentions', 'lessons', 'episodes', 'health_runs', 'request_log'] as const;

/** The constraints of one kind ('p' primary, 'u' unique, 'f' foreign) a table has. */
async function constraintsOf(db: Db, table: string, kind: 'p' | 'u' | 'f'): Promise<string[]> {
  const { rows } = await sql<{ conname: string }>`
    select conname from pg_constraint where conrelid = ${table}::regclass and contype = ${kind}`.execute(db);
  return rows.map((row) => row.conname);
}

/** Drops a table's constraints of one kind. */
async function dropConstraints(db: Db, table: string, kind: 'p' | 'u' | 'f'): Promise<void> {
  for (const name of await constraintsOf(db, table, kind)) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(name)}`.execute(db);
  }
}

/**
 * Every key starts with the account: the primary keys and unique constraints of the tables that
 * hold an account's rows include `account_id`, and so do the foreign keys between them;
 * `memory_sources` and `memory_events` carry `account_id` themselves. Nothing changes for one
 * database; it is what sharding by account (Citus, docs/deploy.md) requires of a schema, so
 * that only the distribution calls are left to run there.
 */
export const accountKeys: Migration = {
  id: 15,
  name: 'account-keys',
  async up(db) {
    for (const table of ['memory_sources', 'memory_events']) {
      await sql`alter table ${sql.table(table)} add column account_id integer`.execute(db);
      await sql`
        update ${sql.table(table)} t set account_id = m.account_id from memories m where m.id = t.memory_id`.execute(db);
      // A row whose memory is gone was already cascaded away; none can be left without an account.
      await sql`alter table ${sql.table(table)} alter column account_id set not null`.execute(db);
    }

    // The foreign keys to sources and memories go with their primary keys and come back through the account.
    for (const table of ['memory_sources', 'memory_events', 'jobs', 'files', 'state_items', 'intentions', 'lessons', 'episodes']) {
      await dropConstraints(db, table, 'f');
    }
    await sql`alter table sources drop constraint sources_pkey, add primary key (account_id, id)`.execute(db);
    await sql`alter table memories drop constraint memories_pkey, add primary key (account_id, id)`.execute(db);
    await sql`alter table memory_sources drop constraint memory_sources_pkey, add primary key (account_id, memory_id, source_id)`.execute(
      db,
    );
    await sql`alter table memory_events drop constraint memory_events_pkey, add primary key (account_id, id)`.execute(db);
    for (const table of OWN_ROWS) {
      await dropConstraints(db, table, 'p');
      await sql`alter table ${sql.table(table)} add primary key (account_id, id)`.execute(db);
    }
    await sql`alter table idempotency_keys drop constraint idempotency_keys_pkey, add primary key (account_id, key_id, key)`.execute(db);

    for (const table of ['files', 'state_items', 'intentions', 'lessons', 'episodes']) await dropConstraints(db, table, 'u');
    await sql`alter table files add unique (account_id, source_id)`.execute(db);
    await sql`alter table state_items add unique (account_id, source_id, field, key, done)`.execute(db);
    await sql`alter table intentions add unique (account_id, source_id, key)`.execute(db);
    await sql`alter table lessons add unique (account_id, source_id, key)`.execute(db);
    await sql`alter table episodes add unique (account_id, source_id)`.execute(db);

    // The foreign keys again, each through the account; those to spaces and accounts as they were.
    const toSources = sql`references sources (account_id, id) on delete cascade`;
    const toMemories = sql`references memories (account_id, id) on delete cascade`;
    await sql`alter table memory_sources add foreign key (account_id, memory_id) ${toMemories}, add foreign key (account_id, source_id) ${toSources}`.execute(
      db,
    );
    await sql`alter table memory_events add foreign key (account_id, memory_id) ${toMemories}`.execute(db);
    for (const table of ['jobs', 'files', 'state_items', 'intentions', 'lessons', 'episodes']) {
      await sql`alter table ${sql.table(table)} add foreign key (account_id, source_id) ${toSources}`.execute(db);
    }
    for (const table of ['files', 'state_items', 'intentions', 'lessons', 'episodes']) {
      await sql`alter table ${sql.table(table)} add foreign key (account_id, space) references spaces (account_id, name) on delete cascade`.execute(
        db,
      );
    }
    // Ids stay unique in a store (the identity sequence, and a restore that keeps an id only when it
    // is free): looking one up without its account (a restore's check, a history's reference) reads an index.
    await sql`create index memories_id on memories (id)`.execute(db);
    await sql`create index sources_id on sources (id)`.execute(db);
  },
};

import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Stored answers of `Idempotency-Key` belong to the key that made them (not the whole account),
 * are kept 24 hours, and never hold a key's text. Answers kept before this migration were per
 * account and could hold the text of a new key, so they are dropped.
 */
export const idempotencyScope: Migration = {
  id: 8,
  name: 'idempotency-scope',
  async up(db) {
    await sql`delete from idempotency_keys`.execute(db);
    await sql`alter table idempotency_keys drop constraint idempotency_keys_pkey`.execute(db);
    await sql`alter table idempotency_keys add column key_id integer not null references api_keys(id) on delete cascade`.execute(db);
    // The answer held a secret (a new key's text) that was left out: a replay cannot give it again.
    await sql`alter table idempotency_keys add column secret_withheld boolean not null default false`.execute(db);
    await sql`alter table idempotency_keys add primary key (key_id, key)`.execute(db);
    await sql`create index idempotency_keys_created on idempotency_keys (created_at)`.execute(db);
  },
};

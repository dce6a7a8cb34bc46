import { sql } from 'kysely';
import type { Migration } from './migration.js';

/** Per-key rate counters, monthly usage per space, raw passages of sources waiting to be learned. */
export const limitsAndUsage: Migration = {
  id: 2,
  name: 'limits-and-usage',
  async up(db) {
    // One row per key and minute; rows of past minutes are swept by the workers.
    await sql`
      create table rate_counters (
        key_id integer not null references api_keys(id) on delete cascade,
        window_start timestamptz not null,
        count integer not null default 0,
        primary key (key_id, window_start)
      )`.execute(db);
    // What each space used in a month; the account's figures are the sums.
    await sql`
      create table usage_counters (
        account_id integer not null references accounts(id) on delete cascade,
        space text not null,
        period_start timestamptz not null,
        learned_tokens bigint not null default 0,
        answers integer not null default 0,
        primary key (account_id, period_start, space)
      )`.execute(db);
    await sql`create index sources_waiting on sources (account_id, created_at) where status = 'waiting'`.execute(db);
    // A memory written from a waiting source's raw text, so the save is searchable before it is learned.
    await sql`alter table memories add column raw boolean not null default false`.execute(db);
    // The space an idempotent answer belongs to, so erasing a space erases its stored answers too.
    await sql`alter table idempotency_keys add column space text`.execute(db);
    await sql`alter table api_keys add column revoked_reason text`.execute(db);
  },
};

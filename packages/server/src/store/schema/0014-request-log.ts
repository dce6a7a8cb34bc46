import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * The request log behind the console's requests page and `engram requests`: one row per
 * authenticated /v1 call, never its body or its key (only the key's first characters).
 */
export const requestLog: Migration = {
  id: 14,
  name: 'request-log',
  async up(db) {
    await sql`
      create table request_log (
        id bigserial primary key,
        account_id integer not null references accounts(id) on delete cascade,
        at timestamptz not null,
        method text not null,
        route text not null,
        status integer not null,
        space text,
        key_prefix text not null,
        request_id text not null,
        duration_ms integer not null,
        error_type text
      )`.execute(db);
    await sql`create index request_log_account_id on request_log (account_id, id desc)`.execute(db);
    await sql`create index request_log_account_request on request_log (account_id, request_id)`.execute(db);
    await sql`create index request_log_at on request_log (at)`.execute(db);
  },
};

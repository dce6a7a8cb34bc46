import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Files kept under a path. One file is one source (kind 'file'), which holds what is
 * still to be learned; the file row holds the text exactly as written. The path is
 * collated "C" so that listings go character by character on PGlite and PostgreSQL alike.
 */
export const files: Migration = {
  id: 5,
  name: 'files',
  async up(db) {
    await sql`
      create table files (
        account_id integer not null,
        space text not null,
        path text collate "C" not null,
        text text not null,
        size integer not null,
        labels jsonb not null default '{}',
        source_id text not null unique references sources(id) on delete cascade,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (account_id, space, path),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
  },
};

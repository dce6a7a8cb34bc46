import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * What `engram restore` gave a record whose id was already taken in this store (ids are
 * global): restoring the same file again finds the record it made instead of making another.
 * Erased with its space. Also indexes that let an export walk a space in id order a page at a
 * time without sorting the whole space for every page.
 */
export const restoredIds: Migration = {
  id: 12,
  name: 'restored-ids',
  async up(db) {
    await sql`
      create table restored_ids (
        account_id integer not null,
        space text not null,
        kind text not null,
        original text not null,
        restored text not null,
        primary key (account_id, space, kind, original),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index memories_scope_id on memories (account_id, space, id)`.execute(db);
    await sql`create index sources_scope_id on sources (account_id, space, (id collate "C"))`.execute(db);
  },
};

import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * A version per space that changes whenever any of its memories is added, changed or
 * removed, so that a process holding a copy of a space's search index can tell in one small
 * read whether the copy is still true (see store/memory-index.ts). Versions come from one
 * sequence, so a space erased and made again never repeats a version a copy may hold.
 * Statement-level triggers bump it however memories change: by the repositories, by a
 * cascade from a deleted source or space, or by hand.
 */
export const memoryVersions: Migration = {
  id: 6,
  name: 'memory-versions',
  async up(db) {
    await sql`create sequence memory_versions`.execute(db);
    await sql`alter table spaces add column memories_version bigint not null default nextval('memory_versions')`.execute(db);
    await sql`
      create function memories_changed() returns trigger language plpgsql as $$
      begin
        update spaces s set memories_version = nextval('memory_versions')
        where (s.account_id, s.name) in (select distinct changed.account_id, changed.space from changed_rows changed);
        return null;
      end $$`.execute(db);
    await sql`
      create trigger memories_inserted after insert on memories
      referencing new table as changed_rows for each statement execute function memories_changed()`.execute(db);
    await sql`
      create trigger memories_updated after update on memories
      referencing new table as changed_rows for each statement execute function memories_changed()`.execute(db);
    await sql`
      create trigger memories_deleted after delete on memories
      referencing old table as changed_rows for each statement execute function memories_changed()`.execute(db);
  },
};

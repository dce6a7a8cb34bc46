import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * What profiles and the graph read of a memory: what each name of `about` names (person,
 * place, org, thing; same order as `about`), whether the fact lasts or holds for now, and
 * whether it speaks of the owner ("The user"). Null on memories learned before this
 * migration until `engram reindex` learns their sources again; readers then work them out
 * from the memory's own text.
 */
export const people: Migration = {
  id: 10,
  name: 'people',
  async up(db) {
    await sql`alter table memories add column name_types text[]`.execute(db);
    await sql`alter table memories add column lasting boolean`.execute(db);
    await sql`alter table memories add column owner boolean`.execute(db);
  },
};

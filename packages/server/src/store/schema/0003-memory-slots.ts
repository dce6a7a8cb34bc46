import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * What a memory says something about ("omar|lives-in"): a later fact with the same slot
 * replaces the current one. Null for facts that add to what is known rather than change it.
 */
export const memorySlots: Migration = {
  id: 3,
  name: 'memory-slots',
  async up(db) {
    await sql`alter table memories add column slot text`.execute(db);
    await sql`create index memories_current_slot on memories (account_id, space, slot) where status = 'current' and slot is not null`.execute(
      db,
    );
  },
};

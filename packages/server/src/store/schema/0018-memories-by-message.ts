import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Memories found by the message they were said in: a context block brings the other memories of
 * its best memory's message (recall/context-block.ts), one lookup a call. Migration 16's index on
 * `source_id` alone read every memory of the source for it, which is thousands in a long
 * conversation or a large file; this one goes to the message and still serves lookups by source.
 */
export const memoriesByMessage: Migration = {
  id: 18,
  name: 'memories-by-message',
  async up(db) {
    await sql`create index memories_source_message on memories (source_id, message_index)`.execute(db);
    await sql`drop index memories_source`.execute(db);
  },
};

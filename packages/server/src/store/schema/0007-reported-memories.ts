import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Marks the memories that are a speaker's remark about something other than themselves
 * ("Priya said it was a lot of fun."), which recall weighs a little lower. Memories learned
 * before it are unmarked until `engram reindex` learns their sources again.
 */
export const reportedMemories: Migration = {
  id: 7,
  name: 'reported-memories',
  async up(db) {
    await sql`alter table memories add column reported boolean not null default false`.execute(db);
  },
};

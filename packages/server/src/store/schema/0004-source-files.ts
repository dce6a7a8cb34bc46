import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * An uploaded PDF or Word file waits in `sources.file` until a worker reads its text into
 * `body`; the bytes are dropped once read, so a file is read once and not kept twice.
 */
export const sourceFiles: Migration = {
  id: 4,
  name: 'source-files',
  async up(db) {
    await sql`alter table sources add column file bytea`.execute(db);
  },
};

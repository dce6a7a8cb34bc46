import { sql } from 'kysely';
import type { Db } from './database.js';

/** Whether the store answers a trivial query (throws when it does not). */
export async function pingStore(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Whether the learning queue can be read (throws when it cannot). */
export async function pingQueue(db: Db): Promise<void> {
  await sql`select id from jobs order by run_at, id limit 1`.execute(db);
}

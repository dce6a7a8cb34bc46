import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * Claims a periodic job's slot for `owner`: true when this caller is to run it. A slot claimed
 * by a run that never finished and started over `staleMs` ago is claimed again.
 */
export async function claimSlot(db: Db, name: string, slot: string, owner: string, staleMs: number): Promise<boolean> {
  const { rows } = await sql`
    insert into periodic_runs (name, slot, owner) values (${name}, ${slot}, ${owner})
    on conflict (name, slot) do update set owner = excluded.owner, started_at = now(), error = null
      where periodic_runs.finished_at is null and periodic_runs.started_at < now() - make_interval(secs => ${staleMs / 1_000})
    returning name`.execute(db);
  return rows.length > 0;
}

/** Records that the owner's run of a slot ended, with its error if it failed. */
export async function finishSlot(db: Db, name: string, slot: string, owner: string, error: string | null): Promise<void> {
  await sql`
    update periodic_runs set finished_at = now(), error = ${error}
    where name = ${name} and slot = ${slot} and owner = ${owner}`.execute(db);
}

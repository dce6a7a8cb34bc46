import type { EpisodeOut } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { projectFilter } from './store-structures.js';

/** What happened: one episode per conversation session or dated note, newest first. */
export async function listEpisodes(db: Db, scope: Scope, project: string | null | undefined, limit: number): Promise<EpisodeOut[]> {
  const { rows } = await sql<EpisodeOut>`
    select id, project, title, summary, to_char(date, 'YYYY-MM-DD') as date, source_id from episodes
    where account_id = ${scope.accountId} and space = ${scope.space} and ${projectFilter('project', project)}
    order by date desc, id desc limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...row }));
}

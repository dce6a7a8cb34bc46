import type { IntentionOut, IntentionStatus } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { projectFilter } from './store-structures.js';

interface IntentionRow {
  id: number;
  text: string;
  status: IntentionStatus;
  due: string | null;
  triggers: IntentionOut['triggers'];
  project: string | null;
  source_id: string;
  created_at: Date;
  updated_at: Date;
}

const columns = sql`id, text, status, to_char(due, 'YYYY-MM-DD') as due, triggers, project, source_id, created_at, updated_at`;

/** The API record of an intention. */
function toRecord(row: IntentionRow): IntentionOut {
  return {
    id: row.id,
    text: row.text,
    status: row.status,
    due: row.due,
    triggers: row.triggers ?? [],
    project: row.project,
    source_id: row.source_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Intentions of one status: those with a due day first (soonest first), then the newest. */
export async function listIntentions(
  db: Db,
  scope: Scope,
  status: IntentionStatus,
  limit: number,
  project?: string | null,
): Promise<IntentionOut[]> {
  const { rows } = await sql<IntentionRow>`
    select ${columns} from intentions
    where account_id = ${scope.accountId} and space = ${scope.space} and status = ${status} and ${projectFilter('project', project)}
    order by due asc nulls last, created_at desc, id desc limit ${limit}`.execute(db);
  return rows.map(toRecord);
}

/** Sets an intention's status; null when the space has no such intention. */
export async function setIntentionStatus(db: Db, scope: Scope, id: number, status: IntentionStatus): Promise<IntentionOut | null> {
  const { rows } = await sql<IntentionRow>`
    update intentions set status = ${status}, updated_at = now()
    where account_id = ${scope.accountId} and space = ${scope.space} and id = ${id}
    returning ${columns}`.execute(db);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Open intentions of a project (all when project is undefined), at most `limit`, for briefings to choose from. */
export async function openIntentions(db: Db, scope: Scope, project: string | null | undefined, limit: number): Promise<IntentionOut[]> {
  return listIntentions(db, scope, 'open', limit, project);
}

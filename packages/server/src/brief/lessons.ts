import type { LessonOut } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { projectFilter } from './store-structures.js';

interface LessonRow {
  id: number;
  type: LessonOut['type'];
  text: string;
  applies_when: string | null;
  why: string | null;
  project: string | null;
  source_id: string;
  date: string;
}

/**
 * Rules, how-tos and lessons, newest first. With a project, its own and those that belong to
 * no project (they apply everywhere) when `withGeneral` is set.
 */
export async function listLessons(
  db: Db,
  scope: Scope,
  project: string | null | undefined,
  limit: number,
  withGeneral = false,
): Promise<LessonOut[]> {
  const filter =
    withGeneral && project ? sql`(${projectFilter('project', project)} or coalesce(project, '') = '')` : projectFilter('project', project);
  const { rows } = await sql<LessonRow>`
    select id, type, text, applies_when, why, project, source_id, to_char(date, 'YYYY-MM-DD') as date from lessons
    where account_id = ${scope.accountId} and space = ${scope.space} and ${filter}
    order by date desc, id asc limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...row }));
}

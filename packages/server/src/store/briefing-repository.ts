import type { EpisodeOut, IntentionOut, IntentionStatus, LessonOut } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Scope } from './scope.js';

/**
 * The briefing tables (project state, intentions, lessons, episodes): what a source taught
 * besides facts, and the reads that briefings and their listings make of them.
 */

/** The condition that keeps rows of one project (case and spacing aside); null keeps every project. */
export function projectFilter(column: string, project: string | null | undefined) {
  if (project === undefined || project === null) return sql`true`;
  const name = project.trim().toLowerCase();
  if (name === '') return sql`coalesce(${sql.ref(column)}, '') = ''`;
  return sql`lower(trim(${sql.ref(column)})) = ${name}`;
}

/** A statement about a project's state (a goal, the focus, an open item, a decision, a next step, a thing done). */
export type StateItemField = 'goal' | 'focus' | 'open' | 'decision' | 'next' | 'done';

/**
 * What a source taught besides facts, ready to store. Each item carries the key of its wording
 * (lower case, stop words out), so that learning a source twice stores nothing twice.
 */
export interface StructuresToStore {
  /** The project the source belongs to, set on the source when it has none yet. */
  project: string | null;
  state: { project: string | null; field: StateItemField; text: string; key: string; saidAt: string; position: number }[];
  intentions: { project: string | null; text: string; key: string; due: string | null; triggers: unknown[] }[];
  lessons: {
    project: string | null;
    type: LessonOut['type'];
    text: string;
    key: string;
    appliesWhen: string | null;
    why: string | null;
    date: string;
  }[];
  episode: { project: string | null; title: string; summary: string; date: string } | null;
}

/**
 * Stores what a source taught besides facts, within the caller's transaction. Each row is keyed
 * by its source and wording, and an intention already marked done or dropped keeps its status.
 * Every row points at its source, so deleting the source (or erasing the space) deletes what only
 * it taught.
 */
export async function storeStructures(transaction: Db, scope: Scope, sourceId: string, structures: StructuresToStore): Promise<void> {
  const { accountId, space } = scope;
  if (structures.project !== null) {
    await sql`
      update sources set project = ${structures.project}
      where account_id = ${accountId} and space = ${space} and id = ${sourceId} and project is null`.execute(transaction);
  }
  for (const item of structures.state) {
    await sql`
      insert into state_items (account_id, space, project, field, text, key, done, said_at, position, source_id)
      values (${accountId}, ${space}, ${item.project ?? ''}, ${item.field}, ${item.text}, ${item.key}, ${item.field === 'done'},
              ${item.saidAt}, ${item.position}, ${sourceId})
      on conflict (account_id, source_id, field, key, done) do nothing`.execute(transaction);
  }
  for (const intention of structures.intentions) {
    await sql`
      insert into intentions (account_id, space, project, text, key, due, triggers, source_id)
      values (${accountId}, ${space}, ${intention.project}, ${intention.text}, ${intention.key}, ${intention.due},
              ${JSON.stringify(intention.triggers)}::jsonb, ${sourceId})
      on conflict (account_id, source_id, key) do nothing`.execute(transaction);
  }
  for (const lesson of structures.lessons) {
    await sql`
      insert into lessons (account_id, space, project, type, text, key, applies_when, why, date, source_id)
      values (${accountId}, ${space}, ${lesson.project}, ${lesson.type}, ${lesson.text}, ${lesson.key}, ${lesson.appliesWhen},
              ${lesson.why}, ${lesson.date}, ${sourceId})
      on conflict (account_id, source_id, key) do nothing`.execute(transaction);
  }
  const episode = structures.episode;
  if (episode !== null) {
    await sql`
      insert into episodes (account_id, space, project, title, summary, date, source_id)
      values (${accountId}, ${space}, ${episode.project}, ${episode.title}, ${episode.summary}, ${episode.date}, ${sourceId})
      on conflict (account_id, source_id) do update set title = excluded.title, summary = excluded.summary, date = excluded.date, project = excluded.project`.execute(
      transaction,
    );
  }
}

/** A stored statement about a project's state. */
export interface StateItemRow {
  project: string;
  field: StateItemField;
  text: string;
  said_at: Date;
  source_id: string;
  id: number;
}

/** The state statements of a space (of one project, or all), in the order they were said. */
export async function stateItems(db: Db, scope: Scope, project?: string | null): Promise<StateItemRow[]> {
  const { rows } = await sql<StateItemRow>`
    select id, project, field, text, said_at, source_id from state_items
    where account_id = ${scope.accountId} and space = ${scope.space} and ${projectFilter('project', project)}
    order by said_at, source_id, position, id`.execute(db);
  return rows;
}

/** What happened: one episode per conversation session or dated note, newest first. */
export async function listEpisodes(db: Db, scope: Scope, project: string | null | undefined, limit: number): Promise<EpisodeOut[]> {
  const { rows } = await sql<EpisodeOut>`
    select id, project, title, summary, to_char(date, 'YYYY-MM-DD') as date, source_id from episodes
    where account_id = ${scope.accountId} and space = ${scope.space} and ${projectFilter('project', project)}
    order by date desc, id desc limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...row }));
}

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

const intentionColumns = sql`id, text, status, to_char(due, 'YYYY-MM-DD') as due, triggers, project, source_id, created_at, updated_at`;

/** The API record of an intention. */
function toIntentionRecord(row: IntentionRow): IntentionOut {
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
    select ${intentionColumns} from intentions
    where account_id = ${scope.accountId} and space = ${scope.space} and status = ${status} and ${projectFilter('project', project)}
    order by due asc nulls last, created_at desc, id desc limit ${limit}`.execute(db);
  return rows.map(toIntentionRecord);
}

/** Sets an intention's status; null when the space has no such intention. */
export async function setIntentionStatus(db: Db, scope: Scope, id: number, status: IntentionStatus): Promise<IntentionOut | null> {
  const { rows } = await sql<IntentionRow>`
    update intentions set status = ${status}, updated_at = now()
    where account_id = ${scope.accountId} and space = ${scope.space} and id = ${id}
    returning ${intentionColumns}`.execute(db);
  return rows[0] ? toIntentionRecord(rows[0]) : null;
}

/** The ids of a space's newest current memories (of one project's sources, or all), at most `limit`. */
export async function newestMemoryIds(db: Db, scope: Scope, project: string | undefined, limit: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select m.id from memories m join sources s on s.account_id = m.account_id and s.id = m.source_id
    where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current' and not m.raw
      and ${projectFilter('s.project', project)}
    order by m.date desc, m.created_at desc, m.id desc limit ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

/** Of the given memories, those learned from a project's sources. */
export async function memoryIdsOfProject(db: Db, scope: Scope, ids: number[], project: string): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const { rows } = await sql<{ id: number }>`
    select m.id from memories m join sources s on s.account_id = m.account_id and s.id = m.source_id
    where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.id = any(${ids}::int[])
      and ${projectFilter('s.project', project)}`.execute(db);
  return new Set(rows.map((row) => row.id));
}

import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import type { LearnedStructures } from './learn-structures.js';
import { keyOf } from './learn-structures.js';

/**
 * Stores what a source taught besides facts, within the caller's transaction. Learning a source
 * twice stores nothing twice (each row is keyed by its source and wording), and an intention
 * already marked done or dropped keeps its status. Every row points at its source, so deleting
 * the source (or erasing the space) deletes what only it taught.
 */
export async function storeStructures(transaction: Db, scope: Scope, sourceId: string, structures: LearnedStructures): Promise<void> {
  const { accountId, space } = scope;
  // A source whose text names its project ("Project: Falcon") belongs to it, so its memories come with the project's briefing.
  if (structures.project !== null) {
    await sql`
      update sources set project = ${structures.project}
      where account_id = ${accountId} and space = ${space} and id = ${sourceId} and project is null`.execute(transaction);
  }
  for (const item of structures.state) {
    await sql`
      insert into state_items (account_id, space, project, field, text, key, done, said_at, position, source_id)
      values (${accountId}, ${space}, ${item.project ?? ''}, ${item.field}, ${item.text}, ${keyOf(item.text)}, ${item.field === 'done'},
              ${item.saidAt}, ${item.position}, ${sourceId})
      on conflict (account_id, source_id, field, key, done) do nothing`.execute(transaction);
  }
  for (const intention of structures.intentions) {
    await sql`
      insert into intentions (account_id, space, project, text, key, due, triggers, source_id)
      values (${accountId}, ${space}, ${intention.project}, ${intention.text}, ${keyOf(intention.text)}, ${intention.due},
              ${JSON.stringify(intention.triggers)}::jsonb, ${sourceId})
      on conflict (account_id, source_id, key) do nothing`.execute(transaction);
  }
  for (const lesson of structures.lessons) {
    await sql`
      insert into lessons (account_id, space, project, type, text, key, applies_when, why, date, source_id)
      values (${accountId}, ${space}, ${lesson.project}, ${lesson.type}, ${lesson.text}, ${keyOf(lesson.text)}, ${lesson.appliesWhen},
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

/** The condition that keeps rows of one project (case and spacing aside); null keeps every project. */
export function projectFilter(column: string, project: string | null | undefined) {
  if (project === undefined || project === null) return sql`true`;
  const name = project.trim().toLowerCase();
  if (name === '') return sql`coalesce(${sql.ref(column)}, '') = ''`;
  return sql`lower(trim(${sql.ref(column)})) = ${name}`;
}

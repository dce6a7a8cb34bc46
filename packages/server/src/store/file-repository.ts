import type { Labels } from '@engram/protocol';
import { sql } from 'kysely';
import { billableText, planRewrite, sentenceIndex } from '../files/diff.js';
import { countCharacters } from '../files/path.js';
import { countTextTokens } from '../text/token-count.js';
import type { Db } from './database.js';
import { newSourceId } from './ids.js';
import { unlinkMemories } from './link-repository.js';
import { deleteRawPassages, storeRawPassages } from './passage-repository.js';
import type { Scope } from './scope.js';
import type { SourceRow } from './source-repository.js';
import { ensureSpace, findSource } from './source-repository.js';

/** A file as listed (no text). */
export interface FileListRow {
  path: string;
  size: number;
  labels: Labels;
  updated_at: Date;
}

/** A file with its text. */
export interface FileRow extends FileListRow {
  text: string;
  source_id: string;
  created_at: Date;
}

/** What a write did. */
export interface WriteResult {
  file: FileRow;
  created: boolean;
  source: SourceRow;
  /** Whether a learning job was queued (the worker should look). */
  queued: boolean;
}

/** Source statuses whose body still holds sentences not yet learned. */
const NOT_YET_LEARNED = new Set(['queued', 'learning', 'waiting', 'failed']);

const inScope = (scope: Scope) => sql`f.account_id = ${scope.accountId} and f.space = ${scope.space}`;

/** One file of the scope with its text, or null. */
export async function findFile(db: Db, scope: Scope, path: string): Promise<FileRow | null> {
  const { rows } = await sql<FileRow>`
    select f.path, f.text, f.size, f.labels, f.updated_at, f.created_at, f.source_id from files f
    where ${inScope(scope)} and f.path = ${path}`.execute(db);
  return rows[0] ?? null;
}

/** A page of the files whose path starts with `prefix`, character by character ("C" collation). */
export async function listFiles(
  db: Db,
  scope: Scope,
  prefix: string,
  limit: number,
  cursor: number,
): Promise<{ rows: FileListRow[]; total: number }> {
  const { rows } = await sql<FileListRow>`
    select f.path, f.size, f.labels, f.updated_at from files f
    where ${inScope(scope)} and starts_with(f.path, ${prefix})
    order by f.path limit ${limit} offset ${cursor}`.execute(db);
  const count = await sql<{ total: number }>`
    select count(*)::int as total from files f where ${inScope(scope)} and starts_with(f.path, ${prefix})`.execute(db);
  return { rows, total: count.rows[0]!.total };
}

/**
 * Writes a file: creates it, or replaces its text and learns only what changed. On a
 * rewrite the old and new texts are compared sentence by sentence (files/diff.ts):
 * memories of removed sentences are dropped (or only unlinked when another source also
 * taught them), memories of kept sentences stay as they are with their offsets moved to
 * where the sentence now sits, and the source's body becomes the new text with everything
 * but the sentences to learn blanked. The learning job therefore reads, and bills, only
 * the new sentences, and what it learns points into the real text.
 */
export async function writeFile(
  db: Db,
  scope: Scope,
  input: { path: string; text: string; labels?: Labels; learn?: boolean; project?: string | null },
  options: { waiting: boolean; maxAttempts: number },
): Promise<WriteResult> {
  // `learn: false` keeps what this write adds as text only: nothing is queued, billed or searchable.
  const learnable = (body: string | null) => (input.learn === false ? null : body);
  return db.transaction().execute(async (transaction) => {
    await ensureSpace(transaction, scope);
    const { rows } = await sql<{ text: string; labels: Labels; source_id: string; status: string; body: string | null }>`
      select f.text, f.labels, f.source_id, s.status, s.body from files f join sources s on s.account_id = f.account_id and s.id = f.source_id
      where ${inScope(scope)} and f.path = ${input.path} for update of f, s`.execute(transaction);
    const existing = rows[0];
    const size = countCharacters(input.text);
    let sourceId: string;
    let queued = false;
    if (!existing) {
      sourceId = newSourceId();
      await sql`
        insert into sources (id, account_id, space, kind, title, path, body, tokens, status, project)
        values (${sourceId}, ${scope.accountId}, ${scope.space}, 'file', ${input.path}, ${input.path}, '', 0, 'queued', ${input.project ?? null})`.execute(
        transaction,
      );
      await sql`
        insert into files (account_id, space, path, text, size, labels, source_id)
        values (${scope.accountId}, ${scope.space}, ${input.path}, ${input.text}, ${size},
          ${JSON.stringify(input.labels ?? {})}::jsonb, ${sourceId})`.execute(transaction);
      // A first write is learned whole, with every sentence's surroundings as context.
      const plan = planRewrite('', null, input.text);
      queued = await queueLearning(transaction, scope, sourceId, learnable(plan.body === null ? null : input.text), options);
    } else {
      sourceId = existing.source_id;
      // A project sent again replaces the old one; left out, the old one is kept.
      if (input.project !== undefined) {
        await sql`update sources set project = ${input.project} where account_id = ${scope.accountId} and id = ${sourceId}`.execute(
          transaction,
        );
      }
      if (existing.text !== input.text) {
        const plan = planRewrite(existing.text, NOT_YET_LEARNED.has(existing.status) ? existing.body : null, input.text);
        // Raw passages stand in for text not yet learned; they are rebuilt from the new body.
        await deleteRawPassages(transaction, scope, sourceId);
        await followRewrite(transaction, scope, sourceId, input.text, sentenceIndex(plan.diff));
        queued = await queueLearning(transaction, scope, sourceId, learnable(plan.body), options);
      }
      await sql`
        update files f set text = ${input.text}, size = ${size}, updated_at = now(),
          labels = ${input.labels === undefined ? sql`f.labels` : sql`${JSON.stringify(input.labels)}::jsonb`}
        where ${inScope(scope)} and f.path = ${input.path}`.execute(transaction);
    }
    await applyFileLabels(transaction, scope.accountId, sourceId);
    const file = (await findFile(transaction, scope, input.path))!;
    const source = (await findSource(transaction, scope, sourceId))!;
    return { file, created: !existing, source, queued };
  });
}

/**
 * Sets the source to learn `body` (null: nothing to learn). Any job still pending for the
 * source is replaced by a new one (a new id, so a worker finishing the old job cannot take
 * the new one with it). When the plan says wait, the body is kept as raw passages instead.
 */
async function queueLearning(
  transaction: Db,
  scope: Scope,
  sourceId: string,
  body: string | null,
  options: { waiting: boolean; maxAttempts: number },
): Promise<boolean> {
  await sql`delete from jobs where source_id = ${sourceId}`.execute(transaction);
  if (body === null) {
    await sql`
      update sources set body = null, status = 'finished', error = null, tokens = 0, written_at = now(), learned_at = now()
      where account_id = ${scope.accountId} and id = ${sourceId}`.execute(transaction);
    return false;
  }
  const status = options.waiting ? 'waiting' : 'queued';
  const { rows } = await sql<{ written_at: Date }>`
    update sources set body = ${body}, status = ${status}, error = null, tokens = ${countTextTokens(billableText(body))}, written_at = now()
    where account_id = ${scope.accountId} and id = ${sourceId} returning written_at`.execute(transaction);
  if (options.waiting) {
    await storeRawPassages(transaction, scope, { id: sourceId, body }, rows[0]!.written_at);
    return false;
  }
  await sql`
    insert into jobs (account_id, space, source_id, max_attempts)
    values (${scope.accountId}, ${scope.space}, ${sourceId}, ${options.maxAttempts})`.execute(transaction);
  return true;
}

/**
 * Makes the source's memories follow a rewrite: those learned from a removed sentence lose
 * this source (and go when no other source taught them); the others keep their ids and
 * have their sentence offsets moved to where the sentence now sits.
 */
async function followRewrite(
  transaction: Db,
  scope: Scope,
  sourceId: string,
  text: string,
  where: ReturnType<typeof sentenceIndex>,
): Promise<void> {
  const { rows: links } = await sql<{ memory_id: number; sentence_start: number; sentence_end: number; sentence_text: string }>`
    select memory_id, sentence_start, sentence_end, sentence_text from memory_sources
    where account_id = ${scope.accountId} and source_id = ${sourceId} and message_index is null`.execute(transaction);
  const removed: number[] = [];
  const shifts: { memory_id: number; delta: number }[] = [];
  for (const link of links) {
    const at = where(link.sentence_start, link.sentence_end);
    if (at === null) {
      // Not inside one sentence of the old text (should not happen): judged by its words.
      if (!text.includes(link.sentence_text)) removed.push(link.memory_id);
    } else if (at.removed) removed.push(link.memory_id);
    else if (at.delta !== 0) shifts.push({ memory_id: link.memory_id, delta: at.delta });
  }
  await unlinkMemories(transaction, scope, [sourceId], removed);
  if (shifts.length) {
    const moves = sql`jsonb_to_recordset(${JSON.stringify(shifts)}::jsonb) as d(memory_id int, delta int)`;
    await sql`
      update memory_sources ms set sentence_start = ms.sentence_start + d.delta, sentence_end = ms.sentence_end + d.delta
      from ${moves} where ms.account_id = ${scope.accountId} and ms.source_id = ${sourceId} and ms.memory_id = d.memory_id`.execute(
      transaction,
    );
    await sql`
      update memories m set sentence_start = m.sentence_start + d.delta, sentence_end = m.sentence_end + d.delta
      from ${moves} where m.account_id = ${scope.accountId} and m.source_id = ${sourceId} and m.id = d.memory_id`.execute(transaction);
  }
}

/** Gives every memory a file's source taught the file's labels (recall filters on them). */
export async function applyFileLabels(db: Db, accountId: number, sourceId: string): Promise<void> {
  await sql`
    update memories m set labels = f.labels
    from files f join memory_sources ms on ms.account_id = f.account_id and ms.source_id = f.source_id
    where f.account_id = ${accountId} and f.source_id = ${sourceId} and m.account_id = f.account_id and m.id = ms.memory_id
      and m.labels is distinct from f.labels`.execute(db);
}

/** Deletes files (given by their sources) with their text and every memory learned only from them. */
async function deleteFileSources(transaction: Db, scope: Scope, sourceIds: readonly string[]): Promise<void> {
  if (!sourceIds.length) return;
  await unlinkMemories(transaction, scope, sourceIds, null);
  // The file rows and links go with their sources (on delete cascade); the jobs are deleted by name,
  // as the queue may be kept apart from the sources (docs/citus.sql).
  await sql`
    delete from jobs where account_id = ${scope.accountId}
      and source_id in (select value from jsonb_array_elements_text(${JSON.stringify(sourceIds)}::jsonb))`.execute(transaction);
  await sql`
    delete from sources where account_id = ${scope.accountId} and space = ${scope.space}
      and id in (select value from jsonb_array_elements_text(${JSON.stringify(sourceIds)}::jsonb))`.execute(transaction);
}

/** Deletes one file; false when there is none at that path. */
export async function deleteFile(db: Db, scope: Scope, path: string): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    // The file and its source are locked before any memory (and so the space's row): the order
    // a learning batch takes them in.
    const { rows } = await sql<{ source_id: string }>`
      select f.source_id from files f join sources s on s.account_id = f.account_id and s.id = f.source_id
      where ${inScope(scope)} and f.path = ${path} for update of f, s`.execute(transaction);
    if (!rows.length) return false;
    await deleteFileSources(
      transaction,
      scope,
      rows.map((row) => row.source_id),
    );
    return true;
  });
}

/** Deletes up to `limit` files beneath a prefix, in path order; `more` says whether any are left. */
export async function deleteFilesUnder(db: Db, scope: Scope, prefix: string, limit: number): Promise<{ deleted: number; more: boolean }> {
  return db.transaction().execute(async (transaction) => {
    const { rows } = await sql<{ source_id: string }>`
      select f.source_id from files f join sources s on s.account_id = f.account_id and s.id = f.source_id
      where ${inScope(scope)} and starts_with(f.path, ${prefix})
      order by f.path limit ${limit + 1} for update of f, s`.execute(transaction);
    const chosen = rows.slice(0, limit).map((row) => row.source_id);
    await deleteFileSources(transaction, scope, chosen);
    return { deleted: chosen.length, more: rows.length > limit };
  });
}

/** What a move found. */
export type MoveOutcome = { moved: number } | { notFound: true } | { conflict: string[] } | { invalid: { path: string; problem: string } };

/**
 * Moves one file, or every file beneath `from/` to the same place beneath `to/`, in one
 * transaction. Nothing moves when any target path holds a file. Text, memories and their
 * links stay as they are; the sources' path and title follow.
 */
export async function moveFiles(
  db: Db,
  scope: Scope,
  from: string,
  to: string,
  checkPath: (path: string) => string | null,
): Promise<MoveOutcome> {
  return db.transaction().execute(async (transaction) => {
    const single = await sql<{ path: string; source_id: string }>`
      select f.path, f.source_id from files f where ${inScope(scope)} and f.path = ${from} for update`.execute(transaction);
    const found = single.rows.length
      ? single.rows
      : (
          await sql<{ path: string; source_id: string }>`
            select f.path, f.source_id from files f where ${inScope(scope)} and starts_with(f.path, ${`${from}/`})
            order by f.path for update`.execute(transaction)
        ).rows;
    if (!found.length) return { notFound: true };
    const moves = found.map((row) => ({ source_id: row.source_id, target: to + row.path.slice(from.length) }));
    for (const move of moves) {
      const problem = checkPath(move.target);
      if (problem !== null) return { invalid: { path: move.target, problem } };
    }
    const targets = JSON.stringify(moves.map((move) => move.target));
    const { rows: taken } = await sql<{ path: string }>`
      select f.path from files f where ${inScope(scope)}
        and f.path in (select value collate "C" from jsonb_array_elements_text(${targets}::jsonb)) order by f.path`.execute(transaction);
    if (taken.length) return { conflict: taken.map((row) => row.path) };
    const plan = sql`jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) as d(source_id text, target text)`;
    await sql`update files f set path = d.target from ${plan} where ${inScope(scope)} and f.source_id = d.source_id`.execute(transaction);
    await sql`
      update sources s set path = d.target, title = d.target from ${plan}
      where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.id = d.source_id`.execute(transaction);
    return { moved: moves.length };
  });
}

/** The project a file's `project` label names, for the source that holds its text; null when none. */
export async function fileProject(db: Db, scope: Scope, sourceId: string): Promise<string | null> {
  const { rows } = await sql<{ project: string | null }>`
    select labels->>'project' as project from files
    where account_id = ${scope.accountId} and space = ${scope.space} and source_id = ${sourceId}`.execute(db);
  return rows[0]?.project ?? null;
}

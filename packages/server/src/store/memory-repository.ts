import { sql } from 'kysely';
import type { Counts, HistoryEvent, KindFilter, Labels, Memory, MemoryKind, Sentence } from '@engram/protocol';
import type { Db } from './database.js';
import type { Scope } from './scope.js';

/** A memory row joined with its source's kind and title. */
export interface MemoryRow {
  id: number;
  source_id: string;
  source_kind: Memory['source']['kind'];
  source_title: string | null;
  text: string;
  kind: MemoryKind;
  date: string;
  about: string[];
  labels: Labels;
  status: Memory['status'];
  sentence_text: string;
  message_index: number | null;
  sentence_start: number;
  sentence_end: number;
  created_at: Date;
  updated_at: Date;
}

/** A fact ready to be stored. */
export interface FactToStore {
  text: string;
  kind: MemoryKind;
  about: string[];
  date: string;
  fingerprint: string;
  sentence: { text: string; messageIndex: number | null; start: number; end: number };
}

const memoryColumns = sql`
  m.id, m.source_id, s.kind as source_kind, s.title as source_title, m.text, m.kind,
  to_char(m.date, 'YYYY-MM-DD') as date, m.about, m.labels, m.status, m.sentence_text, m.message_index,
  m.sentence_start, m.sentence_end, m.created_at, m.updated_at`;

const inScope = (scope: Scope) => sql`m.account_id = ${scope.accountId} and m.space = ${scope.space}`;

const kindFilter = (kind: KindFilter) => (kind === 'all' ? sql`true` : sql`m.kind = ${kind}`);

/** The API record of a memory; `score` is given in recall results. */
export function toMemoryRecord(row: MemoryRow, score?: number): Memory {
  const memory: Memory = {
    id: row.id,
    text: row.text,
    kind: row.kind,
    date: row.date,
    source: { id: row.source_id, kind: row.source_kind, title: row.source_title },
    about: row.about,
    labels: row.labels ?? {},
    status: row.status,
    created_at: row.created_at.toISOString(),
  };
  if (score !== undefined) memory.score = Math.round(score * 10_000) / 10_000;
  return memory;
}

/** Current memories of the scope by kind. */
export async function countMemories(db: Db, scope: Scope): Promise<Counts> {
  const { rows } = await sql<{ kind: MemoryKind; count: number }>`
    select m.kind, count(*)::int as count from memories m
    where ${inScope(scope)} and m.status = 'current' group by m.kind`.execute(db);
  const counts: Counts = { all: 0, people: 0, plan: 0, pref: 0, detail: 0 };
  for (const row of rows) {
    counts[row.kind] = row.count;
    counts.all += row.count;
  }
  return counts;
}

/** A page of the scope's current memories, newest first. */
export async function listMemories(db: Db, scope: Scope, kind: KindFilter, limit: number, cursor: number): Promise<MemoryRow[]> {
  const { rows } = await sql<MemoryRow>`
    select ${memoryColumns} from memories m join sources s on s.id = m.source_id
    where ${inScope(scope)} and m.status = 'current' and ${kindFilter(kind)}
    order by m.created_at desc, m.id desc limit ${limit} offset ${cursor}`.execute(db);
  return rows;
}

/** One memory of the scope, whatever its status. */
export async function findMemory(db: Db, scope: Scope, id: number): Promise<MemoryRow | null> {
  const { rows } = await sql<MemoryRow>`
    select ${memoryColumns} from memories m join sources s on s.id = m.source_id
    where ${inScope(scope)} and m.id = ${id}`.execute(db);
  return rows[0] ?? null;
}

/** The sentence a memory came from. */
export function sentenceOf(row: MemoryRow): Sentence {
  const sentence: Sentence = { text: row.sentence_text, start: row.sentence_start, end: row.sentence_end };
  if (row.message_index !== null) sentence.message_index = row.message_index;
  return sentence;
}

/** A memory's history, oldest first. The memory must already be known to be in scope. */
export async function memoryHistory(db: Db, memoryId: number): Promise<HistoryEvent[]> {
  const { rows } = await sql<any>`
    select event, at, other_memory_id, source_id, text from memory_events where memory_id = ${memoryId} order by id`.execute(db);
  return rows.map((row) => {
    const event: HistoryEvent = { event: row.event, at: row.at.toISOString() };
    if (row.other_memory_id !== null) event.memory_id = row.other_memory_id;
    if (row.source_id !== null) event.source_id = row.source_id;
    if (row.text !== null) event.text = row.text;
    return event;
  });
}

/** Forgets a memory for good. False when the scope has no such memory. */
export async function deleteMemory(db: Db, scope: Scope, id: number): Promise<boolean> {
  const { rows } = await sql`delete from memories m where ${inScope(scope)} and m.id = ${id} returning m.id`.execute(db);
  return rows.length > 0;
}

/** Marks a current memory wrong within the caller's transaction; returns its previous status or null when absent. */
export async function markWrong(transaction: Db, scope: Scope, id: number, correction: string, correctionSourceId: string): Promise<string | null> {
  const { rows } = await sql<{ status: string }>`
    select m.status from memories m where ${inScope(scope)} and m.id = ${id} for update`.execute(transaction);
  const previous = rows[0]?.status ?? null;
  if (previous === null || previous === 'wrong') return previous;
  await sql`update memories m set status = 'wrong', updated_at = now() where ${inScope(scope)} and m.id = ${id}`.execute(transaction);
  await sql`
    insert into memory_events (memory_id, event, source_id, text)
    values (${id}, 'corrected', ${correctionSourceId}, ${correction})`.execute(transaction);
  return previous;
}

/**
 * Stores a source's facts within the caller's transaction. A fact already current in the
 * space is linked to the source instead of stored twice; a fact marked wrong is not learned
 * again; learning the same source twice changes nothing. Returns the ids of new memories.
 */
export async function storeFacts(
  transaction: Db,
  scope: Scope,
  sourceId: string,
  facts: FactToStore[],
  labels: Labels = {},
): Promise<{ created: number[]; linked: number[] }> {
  const created: number[] = [];
  const linked: number[] = [];
  for (const fact of facts) {
    const { rows: known } = await sql<{ id: number; status: string }>`
      select m.id, m.status from memories m
      where ${inScope(scope)} and m.fingerprint = ${fact.fingerprint} and m.status in ('current', 'wrong')
      order by (m.status = 'current') desc, m.id limit 1`.execute(transaction);
    const existing = known[0];
    if (existing?.status === 'wrong') continue;
    let memoryId: number;
    let isNew = false;
    if (existing) {
      memoryId = existing.id;
    } else {
      const { rows } = await sql<{ id: number }>`
        insert into memories (account_id, space, source_id, text, kind, date, about, labels, fingerprint,
          sentence_text, message_index, sentence_start, sentence_end, tsv)
        values (${scope.accountId}, ${scope.space}, ${sourceId}, ${fact.text}, ${fact.kind}, ${fact.date}::date,
          ${fact.about}::text[], ${JSON.stringify(labels)}::jsonb, ${fact.fingerprint}, ${fact.sentence.text},
          ${fact.sentence.messageIndex}, ${fact.sentence.start}, ${fact.sentence.end},
          setweight(to_tsvector('english', ${fact.text}), 'A') || setweight(to_tsvector('simple', ${fact.about.join(' ')}), 'B'))
        returning id`.execute(transaction);
      memoryId = rows[0]!.id;
      isNew = true;
    }
    const { rows: link } = await sql`
      insert into memory_sources (memory_id, source_id, sentence_text, message_index, sentence_start, sentence_end)
      values (${memoryId}, ${sourceId}, ${fact.sentence.text}, ${fact.sentence.messageIndex}, ${fact.sentence.start}, ${fact.sentence.end})
      on conflict do nothing returning memory_id`.execute(transaction);
    if (!link.length) continue;
    await sql`
      insert into memory_events (memory_id, event, source_id) values (${memoryId}, ${isNew ? 'learned' : 'linked'}, ${sourceId})`.execute(transaction);
    (isNew ? created : linked).push(memoryId);
  }
  return { created, linked };
}

/** A memory found by full-text search, with its raw rank and its own lexemes. */
export interface RankedRow extends MemoryRow {
  rank: number;
  lexemes: string[];
}

/** The English lexemes (stemmed, stop words dropped) of a text, as Postgres indexes memories. */
export async function lexemesOf(db: Db, text: string): Promise<string[]> {
  const { rows } = await sql<{ lexemes: string[] }>`
    select tsvector_to_array(to_tsvector('english', ${text})) as lexemes`.execute(db);
  return rows[0]?.lexemes ?? [];
}

/**
 * Current memories of the scope sharing any of the given lexemes, best text rank first.
 * The lexemes are already stemmed, so the query is built with the 'simple' configuration.
 */
export async function searchMemories(
  db: Db,
  scope: Scope,
  options: { lexemes: string[]; kind: KindFilter; labels?: Labels; limit: number },
): Promise<RankedRow[]> {
  const labels = options.labels && Object.keys(options.labels).length ? options.labels : null;
  const tsquery = options.lexemes.map((lexeme) => `'${lexeme.replaceAll("'", "''")}'`).join(' | ');
  const { rows } = await sql<RankedRow>`
    select ${memoryColumns}, ts_rank_cd(m.tsv, query, 32) as rank, tsvector_to_array(m.tsv) as lexemes
    from memories m join sources s on s.id = m.source_id, to_tsquery('simple', ${tsquery}) query
    where ${inScope(scope)} and m.status = 'current' and ${kindFilter(options.kind)} and m.tsv @@ query
      and ${labels ? sql`m.labels @> ${JSON.stringify(labels)}::jsonb` : sql`true`}
    order by rank desc, m.created_at desc, m.id desc
    limit ${options.limit}`.execute(db);
  return rows;
}

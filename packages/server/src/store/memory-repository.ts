import {
  type Counts,
  type HistoryEvent,
  type KindFilter,
  type Labels,
  MAX_INT_ID,
  type Memory,
  type MemoryKind,
  type Sentence,
} from '@engram/protocol';
import { type RawBuilder, sql } from 'kysely';
import { levelOfWeights } from '../text/index-levels.js';
import { type Db, primaryOf } from './database.js';
import { columnsOf, type HitColumns, type LexemeHit } from './hit-columns.js';
import { countChanged, countKinds, keptCounts, keptTotal } from './memory-counts.js';
import type { PageStart, Scope } from './scope.js';

/**
 * Marks the lexemes of a memory's broader words (see `broaderText`): "^sport" is indexed
 * beside "swimming", and a question's "sport" asks for it at a lower weight.
 */
export const BROADER_MARK = '^';

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
  /** Subject and attribute when the fact can change (given by loadMemories). */
  slot?: string | null;
  /** What the learner read each name of `about` as ("person", "place", "org", "thing"; given by loadMemories). */
  name_types?: string[] | null;
}

/** A fact ready to be stored. */
export interface FactToStore {
  text: string;
  kind: MemoryKind;
  about: string[];
  date: string;
  fingerprint: string;
  sentence: { text: string; messageIndex: number | null; start: number; end: number };
  /** The rest of the message the fact came from, indexed with a low weight. */
  context?: string;
  /** The message it answers (the one before it in a conversation), indexed with a lower weight. */
  before?: string;
  /** Subject and attribute ("omar|home"): a later fact with the same slot replaces this one. */
  slot?: string | null;
  /** A speaker's remark about something other than themselves (see LearnedFact.reported). */
  reported?: boolean;
  /** What each name of `about` names (see LearnedFact.nameTypes). */
  nameTypes?: string[];
  /** Whether the fact lasts rather than holding for now (see LearnedFact.lasting). */
  lasting?: boolean;
  /** Whether the fact speaks of the owner (see LearnedFact.owner). */
  owner?: boolean;
  /**
   * What the fact is found by besides its own words (see indexExpression), worked out by the
   * caller before its transaction (operations/index-document.ts): the store only writes it.
   */
  index: IndexDocument;
}

/** A fact's enrichment for the index: its nouns' broader words, what its names are, the places around its places. */
export interface IndexDocument {
  /** Broader words of its nouns ("swimming" → "sport"), indexed marked (BROADER_MARK). */
  broader: string;
  /** What the names it holds are ("Spain" → "country"), indexed as its own words. */
  kinds: string;
  /** The places its places lie in ("Tampa" → "Florida state"), indexed as the rest of its message. */
  around: string;
}

/** A memory's own columns (`m`), without its source's. */
const ownColumns = sql`
  m.id, m.source_id, m.text, m.kind,
  to_char(m.date, 'YYYY-MM-DD') as date, m.about, m.labels, m.status, m.sentence_text, m.message_index,
  m.sentence_start, m.sentence_end, m.created_at, m.updated_at`;

const memoryColumns = sql`${ownColumns}, s.kind as source_kind, s.title as source_title`;

const inScope = (scope: Scope) => sql`m.account_id = ${scope.accountId} and m.space = ${scope.space}`;

const kindFilter = (kind: KindFilter) => (kind === 'all' ? sql`true` : sql`m.kind = ${kind}`);
/** Memories holding every label given (none given: all of them). */
const labelFilter = (labels: Labels | undefined) =>
  labels && Object.keys(labels).length ? sql`m.labels @> ${JSON.stringify(labels)}::jsonb` : sql`true`;

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

/** Current memories of the scope by kind: kept as they change (store/memory-counts.ts), read in one small statement. */
export async function countMemories(db: Db, scope: Scope): Promise<Counts> {
  return keptCounts(db, scope);
}

/**
 * A page of the scope's current memories, newest first, starting after a memory (by id) or a
 * count of memories; one more than `limit` is read, to tell whether any follow. The page is
 * found on the index first (once: materialized), then its memories are read whole by id and
 * their sources by id in a statement of their own: joined, the plan depended on statistics that
 * still take a new space for empty after a burst of saves, and read the space's sources once for
 * each memory of the page.
 */
export async function listMemories(db: Db, scope: Scope, kind: KindFilter, limit: number, start: PageStart): Promise<MemoryRow[]> {
  const { rows } = await sql<Omit<MemoryRow, 'source_kind' | 'source_title'>>`
    with page as materialized (${
      'after' in start
        ? sql`
          select p.id from (${memoryAnchor(scope, start.after)}) a (created_at, id) cross join lateral (
            select m.id from memories m
            where ${inScope(scope)} and m.status = 'current' and ${kindFilter(kind)} and (m.created_at, m.id) < (a.created_at, a.id)
            order by m.created_at desc, m.id desc limit ${limit + 1}) p`
        : sql`
          select m.id from memories m
          where ${inScope(scope)} and m.status = 'current' and ${kindFilter(kind)}
          order by m.created_at desc, m.id desc limit ${limit + 1} offset ${start.offset}`
    })
    select ${ownColumns} from memories m
    where m.account_id = ${scope.accountId} and m.id = any(array(select id from page))
    order by m.created_at desc, m.id desc`.execute(db);
  if (!rows.length) return [];
  const sourceIds = [...new Set(rows.map((row) => row.source_id))];
  const { rows: sources } = await sql<{ id: string; kind: MemoryRow['source_kind']; title: string | null }>`
    select s.id, s.kind, s.title from sources s
    where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.id = any(${sourceIds}::text[])`.execute(db);
  const sourceOf = new Map(sources.map((source) => [source.id, source]));
  // Every memory has its source, in its space (deleting a source deletes its memories, in one
  // transaction); one without would be left out, as the join it replaces left it out.
  return rows.flatMap((row) => {
    const source = sourceOf.get(row.source_id);
    return source ? [{ ...row, source_kind: source.kind, source_title: source.title }] : [];
  });
}

/**
 * Where the memory `id` stands in the listing's order (the page after it starts below it); when
 * it is gone, it stood at the time of the nearest earlier memory of the scope (memories are
 * numbered as they are stored), so the page after it starts with that memory.
 */
const memoryAnchor = (scope: Scope, after: number) => {
  // A cursor may name a key past any memory's id (ids are 32-bit): it stands after the newest.
  const id = Math.min(after, MAX_INT_ID);
  return sql`
  select a.created_at, ${id}::int from (
    (select k.created_at from memories k where k.id = ${id} and k.account_id = ${scope.accountId} and k.space = ${scope.space})
    union all
    (select k.created_at from memories k where k.id < ${id} and k.account_id = ${scope.accountId} and k.space = ${scope.space}
      order by k.id desc limit 1)
  ) a limit 1`;
};

/** One memory of the scope, whatever its status. */
export async function findMemory(db: Db, scope: Scope, id: number): Promise<MemoryRow | null> {
  const { rows } = await sql<MemoryRow>`
    select ${memoryColumns} from memories m join sources s on s.account_id = m.account_id and s.id = m.source_id
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
export async function memoryHistory(db: Db, scope: Scope, memoryId: number): Promise<HistoryEvent[]> {
  const rows = await db
    .selectFrom('memory_events')
    .select(['event', 'at', 'other_memory_id', 'source_id', 'text'])
    .where('account_id', '=', scope.accountId)
    .where('memory_id', '=', memoryId)
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const event: HistoryEvent = { event: row.event as HistoryEvent['event'], at: row.at.toISOString() };
    if (row.other_memory_id !== null) event.memory_id = row.other_memory_id;
    if (row.source_id !== null) event.source_id = row.source_id;
    if (row.text !== null) event.text = row.text;
    return event;
  });
}

/** Forgets a memory for good. False when the scope has no such memory. */
export async function deleteMemory(db: Db, scope: Scope, id: number): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    // Locked first, so that the delete's statement reads every link a learning batch added meanwhile.
    const { rows: found } = await sql`select 1 from memories m where ${inScope(scope)} and m.id = ${id} for update`.execute(transaction);
    if (!found.length) return false;
    const { rows } = await sql`
      with changed as (delete from memories m where ${inScope(scope)} and m.id = ${id} returning m.id, m.kind, m.status, m.raw),
      ${countChanged(scope, -1)}
      select id from changed`.execute(transaction);
    return rows.length > 0;
  });
}

/** Marks a current memory wrong within the caller's transaction; returns its previous status or null when absent. */
export async function markWrong(
  transaction: Db,
  scope: Scope,
  id: number,
  correction: string,
  correctionSourceId: string,
): Promise<string | null> {
  const { rows } = await sql<{ status: string }>`
    select m.status from memories m where ${inScope(scope)} and m.id = ${id} for update`.execute(transaction);
  const previous = rows[0]?.status ?? null;
  if (previous === null || previous === 'wrong') return previous;
  await sql`
    with changed as (
      update memories m set status = 'wrong', updated_at = now() where ${inScope(scope)} and m.id = ${id}
      returning m.id, m.kind, ${previous}::text as status, m.raw),
    ${countChanged(scope, -1)}
    select 1`.execute(transaction);
  await sql`
    insert into memory_events (account_id, memory_id, event, source_id, text)
    values (${scope.accountId}, ${id}, 'corrected', ${correctionSourceId}, ${correction})`.execute(transaction);
  return previous;
}

/**
 * What a memory is indexed by, from a recordset `f` with the columns of `storedColumns`: A its own
 * words, B its names, C the rest of its message, D what it answers ("What do you paint?" /
 * "Sunsets, mostly." is found by "paint"), its nouns' broader words without positions (see
 * BROADER_MARK), what the names it holds are ("Spain" → country, "Bach" → composer, "Nike" →
 * company: see `nameKinds`), without positions and unmarked: they count as its own words, and
 * the places its places lie in ("Tampa" → Florida, state) as the rest of its message.
 */
const indexExpression = sql`
  setweight(to_tsvector('english', f.text), 'A') || setweight(to_tsvector('simple', f.names), 'B')
    || setweight(to_tsvector('english', f.context), 'C') || setweight(to_tsvector('english', f.before), 'D')
    || array_to_tsvector(array(select ${BROADER_MARK} || lexeme from unnest(tsvector_to_array(to_tsvector('english', f.broader))) lexeme))
    || array_to_tsvector(tsvector_to_array(to_tsvector('english', f.kinds)))
    || setweight(to_tsvector('english', f.around), 'C')`;

/** What storing a fact writes besides its own words: the texts it is indexed by (see indexExpression) and whether it is a remark. */
function storedColumns(fact: FactToStore) {
  return {
    reported: fact.reported === true,
    name_types: fact.nameTypes ?? null,
    lasting: fact.lasting ?? null,
    owner: fact.owner ?? null,
    text: fact.text,
    names: fact.about.join(' '),
    context: fact.context ?? '',
    before: fact.before ?? '',
    broader: fact.index.broader,
    kinds: fact.index.kinds,
    around: fact.index.around,
  };
}

/**
 * Indexes a source's current memories again as the learner indexes them now, matching each
 * fact to its memory by fingerprint (within the caller's transaction). Their text, ids and
 * history stay as they are. Returns how many memories were indexed again.
 */
export async function reindexFacts(transaction: Db, scope: Scope, sourceId: string, facts: FactToStore[]): Promise<number> {
  if (!facts.length) return 0;
  const rows = facts.map((fact) => ({ fingerprint: fact.fingerprint, ...storedColumns(fact) }));
  const { rows: updated } = await sql`
    update memories m set tsv = ${indexExpression}, reported = f.reported,
      name_types = case when f.name_types is null then null else array(select json_array_elements_text(f.name_types)) end,
      lasting = f.lasting, owner = f.owner
    from json_to_recordset(${JSON.stringify(rows)}::json) as f(fingerprint text, reported boolean, name_types json, lasting boolean, owner boolean, text text, names text, context text, before text, broader text, kinds text, around text)
    where ${inScope(scope)} and m.source_id = ${sourceId} and m.status = 'current' and m.fingerprint = f.fingerprint
    returning m.id`.execute(transaction);
  return updated.length;
}

/**
 * Stores a source's facts within the caller's transaction. A fact already current in the
 * space is linked to the source instead of stored twice; a fact marked wrong is not learned
 * again; learning the same source twice changes nothing. A new fact whose slot (subject and
 * attribute) matches a current memory of an earlier or the same day replaces that memory:
 * the old one is kept with status 'replaced', and both histories say so.
 * Returns the ids of new memories and of those linked, and the pairs replaced.
 */
export async function storeFacts(
  transaction: Db,
  scope: Scope,
  sourceId: string,
  facts: FactToStore[],
  labels: Labels = {},
): Promise<{ created: number[]; linked: number[]; replaced: { old: number; new: number }[] }> {
  const created: number[] = [];
  const linked: number[] = [];
  const replaced: { old: number; new: number }[] = [];
  if (!facts.length) return { created, linked, replaced };
  // A few statements for the whole batch, not a few per fact: each round trip costs more
  // than the work it carries.
  const { rows: known } = await sql<{ id: number; status: string; fingerprint: string }>`
    select distinct on (m.fingerprint) m.id, m.status, m.fingerprint from memories m
    where ${inScope(scope)} and m.fingerprint = any(${[...new Set(facts.map((fact) => fact.fingerprint))]}::text[])
      and m.status in ('current', 'wrong')
    order by m.fingerprint, (m.status = 'current') desc, m.id`.execute(transaction);
  const existing = new Map(known.map((row) => [row.fingerprint, row]));
  // The first fact of each fingerprint not yet current is stored; later ones link to it.
  const fresh = new Map<string, FactToStore>();
  for (const fact of facts) {
    if (!existing.has(fact.fingerprint) && !fresh.has(fact.fingerprint)) fresh.set(fact.fingerprint, fact);
  }
  const ids = new Map<string, number>();
  for (const row of known) if (row.status === 'current') ids.set(row.fingerprint, row.id);
  if (fresh.size) {
    const rows = [...fresh.values()].map((fact, position) => ({
      position,
      kind: fact.kind,
      date: fact.date,
      about: fact.about,
      fingerprint: fact.fingerprint,
      sentence_text: fact.sentence.text,
      message_index: fact.sentence.messageIndex,
      sentence_start: fact.sentence.start,
      sentence_end: fact.sentence.end,
      slot: fact.slot ?? null,
      ...storedColumns(fact),
    }));
    const { rows: inserted } = await sql<{ id: number; fingerprint: string }>`
      insert into memories (account_id, space, source_id, text, kind, date, about, labels, fingerprint,
        sentence_text, message_index, sentence_start, sentence_end, slot, reported, name_types, lasting, owner, tsv)
      select ${scope.accountId}, ${scope.space}, ${sourceId}, f.text, f.kind, f.date::date,
        array(select json_array_elements_text(f.about)), ${JSON.stringify(labels)}::jsonb, f.fingerprint, f.sentence_text,
        f.message_index, f.sentence_start, f.sentence_end, f.slot, f.reported,
        case when f.name_types is null then null else array(select json_array_elements_text(f.name_types)) end, f.lasting, f.owner,
        ${indexExpression}
      from json_to_recordset(${JSON.stringify(rows)}::json) as f(position integer, text text, kind text, date text, about json,
        names text, fingerprint text, sentence_text text, message_index integer, sentence_start integer, sentence_end integer,
        slot text, reported boolean, name_types json, lasting boolean, owner boolean, context text, before text, broader text, kinds text, around text)
      order by f.position
      returning id, fingerprint`.execute(transaction);
    for (const row of inserted) ids.set(row.fingerprint, row.id);
  }
  const links = facts
    .filter((fact) => ids.has(fact.fingerprint))
    .map((fact) => ({
      memory_id: ids.get(fact.fingerprint)!,
      sentence_text: fact.sentence.text,
      message_index: fact.sentence.messageIndex,
      sentence_start: fact.sentence.start,
      sentence_end: fact.sentence.end,
    }));
  if (!links.length) return { created, linked, replaced };
  // A memory already linked to this source (learning it twice) is left as it is. The same
  // statement counts the new links to current memories, and the new memories by kind.
  const { rows: newLinks } = await sql<{ memory_id: number }>`
    with added as (
      insert into memory_sources (account_id, memory_id, source_id, sentence_text, message_index, sentence_start, sentence_end)
      select ${scope.accountId}, l.memory_id, ${sourceId}, l.sentence_text, l.message_index, l.sentence_start, l.sentence_end
      from json_to_recordset(${JSON.stringify(links)}::json) as l(memory_id integer, sentence_text text, message_index integer,
        sentence_start integer, sentence_end integer)
      on conflict do nothing returning memory_id),
    source_counts as (
      insert into source_memory_counts (account_id, source_id, count)
      select ${scope.accountId}, ${sourceId}, count(*)::int from added a
        join memories m on m.account_id = ${scope.accountId} and m.id = a.memory_id
      where m.status = 'current' and not m.raw
      having count(*) > 0
      on conflict (account_id, source_id) do update set count = source_memory_counts.count + excluded.count),
    ${countKinds(
      scope,
      [...fresh.values()].map((fact) => fact.kind),
    )}
    select memory_id from added`.execute(transaction);
  const newlyLinked = new Set(newLinks.map((row) => row.memory_id));
  const freshIds = new Set([...fresh.keys()].map((fingerprint) => ids.get(fingerprint)!));
  for (const id of new Set(links.map((link) => link.memory_id))) {
    if (newlyLinked.has(id)) (freshIds.has(id) ? created : linked).push(id);
  }
  if (!created.length && !linked.length) return { created, linked, replaced };
  await sql`
    insert into memory_events (account_id, memory_id, event, source_id)
    select ${scope.accountId}, e.id, e.event, ${sourceId} from unnest(${[...created, ...linked]}::int[], ${[...created.map(() => 'learned'), ...linked.map(() => 'linked')]}::text[]) as e(id, event)`.execute(
    transaction,
  );
  // A new fact in a slot replaces what was current in it, in the order the facts were said:
  // a later fact of the same batch is not replaced by an earlier one.
  const order = [...fresh.values()].filter((fact) => fact.slot && newlyLinked.has(ids.get(fact.fingerprint)!));
  for (const [index, fact] of order.entries()) {
    const memoryId = ids.get(fact.fingerprint)!;
    const later = order.slice(index + 1).map((next) => ids.get(next.fingerprint)!);
    const { rows: older } = await sql<{ id: number }>`
      with changed as (
        update memories m set status = 'replaced', updated_at = now()
        where ${inScope(scope)} and m.status = 'current' and m.slot = ${fact.slot!} and m.id <> ${memoryId}
          and m.id <> all(${later}::int[]) and m.date <= ${fact.date}::date
        returning m.id, m.kind, 'current'::text as status, m.raw),
      ${countChanged(scope, -1)}
      select id from changed`.execute(transaction);
    for (const { id } of older) {
      await sql`
        insert into memory_events (account_id, memory_id, event, other_memory_id, source_id)
        values (${scope.accountId}, ${id}, 'replaced', ${memoryId}, ${sourceId}), (${scope.accountId}, ${memoryId}, 'replaces', ${id}, ${sourceId})`.execute(
        transaction,
      );
      replaced.push({ old: id, new: memoryId });
    }
  }
  return { created, linked, replaced };
}

/**
 * The slots of current memories that new facts update, giving a memory without one a slot of
 * its own ("memory:<id>"), so that a fact stored in that slot replaces it.
 */
export async function slotsForUpdates(db: Db, scope: Scope, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const { rows } = await sql<{ id: number; slot: string }>`
    update memories m set slot = coalesce(m.slot, 'memory:' || m.id)
    where ${inScope(scope)} and m.status = 'current' and m.id = any(${[...new Set(ids)]}::int[])
    returning m.id, m.slot`.execute(db);
  return new Map(rows.map((row) => [row.id, row.slot]));
}

/** A current memory that may say what a new fact contrasts with, and the lexemes of both. */
export interface ContrastCandidate {
  id: number;
  text: string;
  /** The lexemes of the memory's own words. */
  lexemes: string[];
  /** The lexemes of the old value's words. */
  value: string[];
  /** The lexemes of the new fact's words. */
  fact: string[];
  /** The lexemes of the subject's name. */
  subject: string[];
}

/**
 * The current memories of a space, from other sources, that name `subject` and say every
 * word of `words` in their own text, newest first (at most 20): those a fact saying that
 * `words` no longer hold may update (operations/contrast-updates.ts decides which).
 */
export async function contrastCandidates(
  db: Db,
  scope: Scope,
  query: { subject: string; words: string; fact: string; sourceId: string },
): Promise<ContrastCandidate[]> {
  const { rows } = await sql<ContrastCandidate>`
    with q as (select plainto_tsquery('english', ${query.words}) as value)
    select m.id, m.text, tsvector_to_array(to_tsvector('english', m.text)) as lexemes,
      tsvector_to_array(to_tsvector('english', ${query.words})) as value,
      tsvector_to_array(to_tsvector('english', ${query.fact})) as fact,
      tsvector_to_array(to_tsvector('english', ${query.subject})) as subject
    from memories m, q
    where ${inScope(scope)} and m.status = 'current' and not m.raw and m.source_id <> ${query.sourceId}
      and numnode(q.value) > 0 and m.tsv @@ q.value and to_tsvector('english', m.text) @@ q.value
      and strpos(lower(m.text), lower(${query.subject})) > 0
    order by m.date desc, m.id desc
    limit 20`.execute(db);
  return rows;
}

/** Words whose lexemes a store's process keeps (see lexemesAndVersion); past it, the words read first go first. */
const CACHED_WORDS = 20_000;

const lexemeCaches = new WeakMap<Db, Map<string, readonly string[]>>();

/**
 * The lexemes Postgres's English configuration makes of each word (none for a stop word),
 * and the space's memory version (see store/memory-index.ts), in one round trip; the
 * version is null for a space not yet made. A word's lexemes never change (the configuration is
 * Postgres's own), so each store's process keeps those it has read: a question's words and their
 * related words and neighbours (20 to 50 of them) are mostly read again by the next question,
 * and the statement then reads only the version and the words never read before.
 */
export async function lexemesAndVersion(db: Db, scope: Scope, words: string[]): Promise<{ lexemes: string[][]; version: string | null }> {
  const store = primaryOf(db);
  let cache = lexemeCaches.get(store);
  if (!cache) lexemeCaches.set(store, (cache = new Map()));
  const known = words.map((word) => cache.get(word));
  const unknown = [...new Set(words.filter((_, index) => known[index] === undefined))];
  const { rows } = await sql<{ lexemes: string[][] | null; version: string | null }>`
    select (select json_agg(tsvector_to_array(to_tsvector('english', word)) order by position)
        from unnest(${unknown}::text[]) with ordinality as w(word, position)) as lexemes,
      (select s.memories_version::text from spaces s where s.account_id = ${scope.accountId} and s.name = ${scope.space}) as version`.execute(
    db,
  );
  const read = new Map<string, readonly string[]>();
  (rows[0]?.lexemes ?? []).forEach((lexemes, index) => read.set(unknown[index]!, Object.freeze(lexemes)));
  for (const [word, lexemes] of read) {
    if (cache.size >= CACHED_WORDS) cache.delete(cache.keys().next().value!);
    cache.set(word, lexemes);
  }
  // Frozen and shared between questions: callers read them and never change them.
  const lexemes = words.map((word, index) => (known[index] ?? read.get(word) ?? []) as string[]);
  return { lexemes, version: rows[0]?.version ?? null };
}

export type { LexemeHit } from './hit-columns.js';

/** The columns recall reads of a memory (see LexemeHit), with its tsvector's text. */
export const hitColumns = sql`
  m.id, m.kind, m.about, extract(epoch from m.created_at)::float8 * 1000 as created_at,
  extract(epoch from m.date)::float8 * 1000 as said, m.tsv::text as tsv, m.slot, m.labels, m.reported,
  case when m.message_index is null then null else m.source_id || ':' || m.message_index end as passage`;

/** A row of `hitColumns`. */
export interface HitRow {
  id: number;
  kind: MemoryKind;
  about: string[];
  created_at: number;
  said: number;
  tsv: string;
  slot: string | null;
  labels: Labels | null;
  passage: string | null;
  reported: boolean;
}

/** What recall keeps of a memory's row, before the query's lexemes are matched in it. */
export function hitOf(row: HitRow): Omit<LexemeHit, 'levels'> {
  return {
    id: row.id,
    kind: row.kind,
    about: row.about,
    created_at: row.created_at,
    said: row.said,
    passage: row.passage,
    slot: row.slot,
    dated: DATED_LEXEME.test(row.tsv),
    reported: row.reported,
  };
}

/** What a search for lexemes asks. */
export interface LexemeSearch {
  lexemes: string[];
  kind: KindFilter;
  labels?: Labels;
  /** Lexemes (synonyms) that bring in a memory only from its own words, not its surroundings. */
  factOnly?: ReadonlySet<string>;
  /** Lexemes (names said everywhere) that score memories but bring none in; their counts are given. */
  scoreOnly?: ReadonlySet<string>;
  /**
   * A span the question asks about (epoch milliseconds, end exclusive): the memories said in it
   * are brought in too, whatever their words (at most SAID_BROUGHT, the newest first), so that
   * "What did Omar do on 3 May 2024?" finds what he said that day without naming it.
   */
  said?: { start: number; end: number };
  /**
   * Slot attributes the question asks the value of ("work" for "Where does Omar work?"): the
   * current memories in such a slot are brought in too, whatever their words (at most
   * SLOTS_BROUGHT, the newest first), so that "Omar started at Halden on Monday" answers it.
   */
  slots?: readonly string[];
}

/** The most memories a span brings in besides those its question's words bring. */
export const SAID_BROUGHT = 200;
/** The most memories the slots a question asks about bring in besides those its words bring. */
export const SLOTS_BROUGHT = 200;

const quoteLexeme = (lexeme: string) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Every current memory of the scope sharing any of the lexemes, with where each lexeme
 * matched, and the number of current memories in the scope (for weighting rare words).
 * The lexemes are already stemmed, so the query uses the 'simple' configuration. Where a
 * lexeme matched is read from the memory's tsvector text: testing each lexeme in SQL, or
 * ranking every match with ts_rank_cd, costs several times more.
 */
export async function searchMemories(
  db: Db,
  scope: Scope,
  options: LexemeSearch,
): Promise<{ hits: LexemeHit[]; total: number; counts: Map<string, number> }> {
  const bringing = options.lexemes.filter((lexeme) => !options.scoreOnly?.has(lexeme));
  const any = (bringing.length ? bringing : options.lexemes)
    .map((lexeme) => quoteLexeme(lexeme) + (options.factOnly?.has(lexeme) ? ':AB' : ''))
    .join(' | ');
  const counted = bringing.length ? options.lexemes.filter((lexeme) => options.scoreOnly?.has(lexeme)) : [];
  const countsQuery = counted.length
    ? sql`, array[${sql.join(
        counted.map(
          (lexeme) =>
            sql`(select count(*)::int from memories c where c.account_id = ${scope.accountId} and c.space = ${scope.space} and c.status = 'current' and c.tsv @@ cast(${quoteLexeme(lexeme)} as tsquery))`,
        ),
      )}] as counts`
    : sql``;
  const day = (epoch: number) => new Date(epoch).toISOString().slice(0, 10);
  // Memories brought in whatever their words: the newest `limit` of the scope's current ones (kind
  // and labels as asked) meeting `condition`.
  const newestWhere = (condition: RawBuilder<unknown>, limit: number) => sql` or m.id in (select m.id from memories m
        where ${inScope(scope)} and m.status = 'current' and ${kindFilter(options.kind)}
          and ${labelFilter(options.labels)} and ${condition}
        order by m.date desc, m.id desc limit ${limit})`;
  const saidIn = options.said
    ? newestWhere(sql`m.date >= ${day(options.said.start)}::date and m.date < ${day(options.said.end)}::date`, SAID_BROUGHT)
    : sql``;
  const inSlots = options.slots?.length
    ? newestWhere(sql`m.slot like any(${options.slots.map((attribute) => `%|${attribute}`)}::text[])`, SLOTS_BROUGHT)
    : sql``;
  const { rows } = await sql<HitRow & { counts?: number[] }>`
    select ${hitColumns} ${countsQuery}
    from memories m, cast(${any} as tsquery) query
    where ${inScope(scope)} and m.status = 'current' and ${kindFilter(options.kind)} and (m.tsv @@ query${saidIn}${inSlots})
      and ${labelFilter(options.labels)}`.execute(db);
  const counts = new Map(counted.map((lexeme, index) => [lexeme, rows[0]?.counts?.[index] ?? 0]));
  // One pass of one pattern over each tsvector's text finds every query lexeme in it.
  const positions = new Map(options.lexemes.map((lexeme, index) => [quoteLexeme(lexeme), index]));
  const pattern = new RegExp(`(?:^| )(${[...positions.keys()].map(escapeRegExp).join('|')})(?::(\\S+))?(?= |$)`, 'g');
  const hits = rows.map((row) => {
    const levels = new Array<number>(options.lexemes.length).fill(0);
    // The first group always matches (a query lexeme); the second, its weights, may not.
    for (const [, lexeme = '', weights] of row.tsv.matchAll(pattern)) {
      // Broader words have no positions: they stand for the memory's own words.
      levels[positions.get(lexeme)!] = levelOfWeights(weights);
    }
    return { ...hitOf(row), levels };
  });
  return { hits, total: rows.length ? await currentCount(db, scope) : 0, counts };
}

/** The same answer as `searchMemories`, as columns (what recall scores): see hit-columns.ts. */
export async function searchMemoryColumns(
  db: Db,
  scope: Scope,
  options: LexemeSearch,
): Promise<{ hits: HitColumns; total: number; counts: Map<string, number> }> {
  const found = await searchMemories(db, scope, options);
  return { ...found, hits: columnsOf(found.hits, options.lexemes.length) };
}

/** A year in the memory's own words ("… on 7 May 2023"): the learner writes every date it resolves with its year. */
const DATED_LEXEME = /'(?:1[89]|20)\d\d':[\d,A-D]*[AB]\b/;

/** Current memories per scope, remembered for a few seconds: it only weighs rare words, so it need not be exact. */
const countCache = new Map<string, { count: number; at: number }>();
const COUNT_TTL_MS = 5_000;

async function currentCount(db: Db, scope: Scope): Promise<number> {
  const key = `${scope.accountId}\u0000${scope.space}`;
  const cached = countCache.get(key);
  if (cached && Date.now() - cached.at < COUNT_TTL_MS) return cached.count;
  const count = await keptTotal(db, scope);
  if (countCache.size > 10_000) countCache.clear();
  countCache.set(key, { count, at: Date.now() });
  return count;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Postgres's cover-density rank of some memories for the lexemes (weights D 0.1, C 0.2, B 0.4, A 1), by id. */
export async function rankMemories(db: Db, scope: Scope, ids: number[], lexemes: string[]): Promise<Map<number, number>> {
  if (!ids.length || !lexemes.length) return new Map();
  const any = lexemes.map(quoteLexeme).join(' | ');
  const { rows } = await sql<{ id: number; rank: number }>`
    select m.id, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', m.tsv, cast(${any} as tsquery), 32) as rank
    from memories m where ${inScope(scope)} and m.id = any(${ids}::int[])`.execute(db);
  return new Map(rows.map((row) => [row.id, Number(row.rank)]));
}

/**
 * Current memories said within a span (their `date`, end exclusive) or saying all the given
 * lexemes in their own words (a month and a year), newest first; `said` tells which.
 */
export async function memoriesInSpan(
  db: Db,
  scope: Scope,
  options: { start: Date; end: Date; lexemes: string[]; kind: KindFilter; labels?: Labels },
): Promise<{ id: number; kind: MemoryKind; said: boolean }[]> {
  const naming = options.lexemes.length ? options.lexemes.map((lexeme) => `${quoteLexeme(lexeme)}:AB`).join(' & ') : null;
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const { rows } = await sql<{ id: number; kind: MemoryKind; said: boolean }>`
    select m.id, m.kind, span.said
    from memories m, lateral (select m.date >= ${day(options.start)}::date and m.date < ${day(options.end)}::date as said) span
    where ${inScope(scope)} and m.status = 'current' and ${kindFilter(options.kind)}
      and ${labelFilter(options.labels)}
      and (span.said or ${naming ? sql`m.tsv @@ cast(${naming} as tsquery)` : sql`false`})
    order by span.said desc, m.date desc, m.id desc`.execute(db);
  return rows;
}

/**
 * Memories of the scope by id, in the order of the ids given. Each id is one index lookup: the
 * lateral's limit keeps the planner from reading the ids out of a scan of the whole space, which
 * it chooses when the table's statistics are stale (after a bulk load, before autovacuum's
 * analyze: 10 rows of a 100k space then cost 30-70 ms instead of a fraction of one).
 */
export async function loadMemories(db: Db, scope: Scope, ids: number[]): Promise<MemoryRow[]> {
  if (!ids.length) return [];
  const { rows } = await sql<MemoryRow>`
    select m.* from unnest(${ids}::int[]) as wanted(id), lateral (
      select ${memoryColumns}, m.slot, m.name_types from memories m join sources s on s.account_id = m.account_id and s.id = m.source_id
      where ${inScope(scope)} and m.id = wanted.id limit 1) m`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is MemoryRow => row !== undefined);
}

/**
 * The current memories said in the given messages (a source and a message's index in it), in the
 * order they were said there; `kind` and `labels` filter them as a recall's would.
 */
export async function memoriesOfMessages(
  db: Db,
  scope: Scope,
  messages: { sourceId: string; messageIndex: number }[],
  options: { kind: KindFilter; labels?: Labels },
): Promise<MemoryRow[]> {
  if (!messages.length) return [];
  const { rows } = await sql<MemoryRow>`
    select ${memoryColumns} from memories m join sources s on s.account_id = m.account_id and s.id = m.source_id
    join unnest(${messages.map((message) => message.sourceId)}::text[], ${messages.map((message) => message.messageIndex)}::int[])
      as wanted(source_id, message_index) on m.source_id = wanted.source_id and m.message_index = wanted.message_index
    where ${inScope(scope)} and m.status = 'current' and ${kindFilter(options.kind)}
      and ${labelFilter(options.labels)}
    order by m.source_id, m.message_index, m.sentence_start, m.id`.execute(db);
  return rows;
}

/** Records that new memories replace a memory marked wrong, in both histories (within the caller's transaction). */
export async function recordCorrection(transaction: Db, scope: Scope, correctedId: number, memoryIds: number[]): Promise<void> {
  for (const memoryId of memoryIds) {
    await sql`
      insert into memory_events (account_id, memory_id, event, other_memory_id)
      values (${scope.accountId}, ${memoryId}, 'replaces', ${correctedId}), (${scope.accountId}, ${correctedId}, 'replaced', ${memoryId})`.execute(
      transaction,
    );
  }
}

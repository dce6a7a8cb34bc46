import type { Source, SourceKind, SourceStatus } from '@engram/protocol';
import { sql } from 'kysely';
import type { MessageInput } from '../text/messages.js';
import { readMessages } from '../text/messages.js';
import { countTextTokens } from '../text/token-count.js';
import type { Db } from './database.js';
import { newSourceId } from './ids.js';
import { unlinkMemories } from './link-repository.js';
import { storeRawPassages } from './passage-repository.js';
import type { PageStart, Scope } from './scope.js';
import { rolledBackByConflict } from './store-errors.js';

/** A source row as stored. */
export interface SourceRow {
  id: string;
  account_id: number;
  space: string;
  kind: SourceKind;
  title: string | null;
  url: string | null;
  path: string | null;
  status: SourceStatus;
  error: { type: string; message: string } | null;
  body: string | null;
  messages: unknown[] | null;
  corrects_memory_id: number | null;
  tokens: number;
  written_at: Date;
  created_at: Date;
  learned_at: Date | null;
  memories: number;
  /** The project it was saved under (briefings), or null. */
  project?: string | null;
  /** Attempts at learning it so far. */
  attempts: number;
  /** When its next attempt is due, while it waits after a failed one. */
  retry_at: Date | null;
}

/** What a new source holds. */
export interface NewSource {
  kind: SourceKind;
  title?: string | null;
  url?: string | null;
  path?: string | null;
  body?: string | null;
  messages?: unknown[] | null;
  correctsMemoryId?: number | null;
  tokens: number;
  /** Kept and searchable now, learned when the plan allows (usage over): no job, raw passages instead. */
  waiting?: boolean;
  /** The project it belongs to (briefings), or null. */
  project?: string | null;
}

/** Tokens of what a source holds, counted at save time (a page's are known once it is read). */
function tokensOf(source: NewSource): number {
  if (source.tokens) return source.tokens;
  if (source.messages) {
    return readMessages(source.messages as MessageInput[]).reduce((sum, message) => sum + countTextTokens(message.text), 0);
  }
  return source.body ? countTextTokens(source.body) : 0;
}

/** Opens a space on its first write. */
export async function ensureSpace(db: Db, scope: Scope): Promise<void> {
  await openSpace(scope).execute(db);
}

/**
 * The statement that makes a space on its first write. It inserts only when the space is
 * missing: a bare "on conflict do nothing" would wait for any transaction holding the space's
 * row (learning bumps its memory version) to commit.
 */
const openSpace = (scope: Scope) => sql`
  insert into spaces (account_id, name)
  select ${scope.accountId}, ${scope.space}
  where not exists (select 1 from spaces where account_id = ${scope.accountId} and name = ${scope.space})
  on conflict do nothing`;

/**
 * Stores a source and its learning job in one transaction, so a source is never
 * accepted without being learned later. Returns the stored source.
 */
export async function addSource(db: Db, scope: Scope, source: NewSource, maxAttempts: number): Promise<SourceRow> {
  return db.transaction().execute((transaction) => insertSource(transaction, scope, source, maxAttempts));
}

/**
 * Stores a source and its job within the caller's transaction: the space (opened on its first
 * write) and the source in one statement whose `returning` is the answer, the job in a second.
 * The job stays a statement of its own because the queue may live apart from the account's rows
 * (docs/citus.sql), where one statement writing both could not be planned. A new source has no
 * memories and no failed attempt, so nothing is read back.
 */
export async function insertSource(transaction: Db, scope: Scope, source: NewSource, maxAttempts: number): Promise<SourceRow> {
  return (await insertSources(transaction, [{ scope, source }], maxAttempts))[0]!;
}

/**
 * Stores sources and their jobs within the caller's transaction, as `insertSource` does one, in
 * the same two statements however many there are (a batch): the spaces and the sources in one,
 * the jobs in one. A source kept waiting gets its raw passages instead of a job. Returns the
 * stored sources in the order given.
 */
export async function insertSources(
  transaction: Db,
  items: readonly { scope: Scope; source: NewSource }[],
  maxAttempts: number,
): Promise<SourceRow[]> {
  if (!items.length) return [];
  const { wanted, columns } = sourceColumnsOf(items);
  const { rows } = await sql<Omit<SourceRow, 'memories' | 'retry_at'>>`
    with ${wantedSources(columns)},
    ${openedSpaces}
    insert into sources as s (id, account_id, space, kind, title, url, path, body, messages, corrects_memory_id, tokens, status, project)
    ${addedSources}
    returning ${rowColumns}`.execute(transaction);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const queued = wanted.filter(({ source }) => !source.waiting);
  if (queued.length) {
    await sql`
      insert into jobs (account_id, space, source_id, max_attempts)
      select j.account_id, j.space, j.id, ${maxAttempts}::int
      from unnest(${queued.map(({ scope }) => scope.accountId)}::int[], ${queued.map(({ scope }) => scope.space)}::text[],
        ${queued.map(({ id }) => id)}::text[]) with ordinality as j(account_id, space, id, n)
      order by j.n`.execute(transaction);
  }
  for (const { id, scope, source } of wanted) {
    // Searchable now as raw passages, which count for their space, not their source (store/memory-counts.ts).
    if (source.waiting)
      await storeRawPassages(transaction, scope, { id, body: source.body, messages: source.messages }, byId.get(id)!.written_at);
  }
  return wanted.map(({ id }) => ({ ...byId.get(id)!, memories: 0, retry_at: null }));
}

/**
 * Stores sources and their jobs as `insertSources` does, but in one statement run on its own,
 * which is its own transaction: the spaces, the sources and the jobs each a part of it (the
 * jobs' and the sources' foreign keys are checked at its end). One round trip to the store
 * where a transaction costs four (begin, the two statements, commit): what a save costs on the
 * embedded store, whose every statement crosses to its thread. Only for sources that are queued
 * (none kept waiting, whose raw passages take statements of their own), and only where the
 * queue lives beside the sources: not where it may be a table apart (docs/citus.sql), where one
 * statement writing both could not be planned.
 */
export async function addQueuedSources(
  db: Db,
  items: readonly { scope: Scope; source: NewSource }[],
  maxAttempts: number,
): Promise<SourceRow[]> {
  if (!items.length) return [];
  if (items.some(({ source }) => source.waiting)) throw new Error('addQueuedSources stores queued sources only');
  const { wanted, columns } = sourceColumnsOf(items);
  const { rows } = await sql<Omit<SourceRow, 'memories' | 'retry_at'>>`
    with ${wantedSources(columns)},
    ${openedSpaces},
    added as (
      insert into sources as s (id, account_id, space, kind, title, url, path, body, messages, corrects_memory_id, tokens, status, project)
      ${addedSources}
      returning ${rowColumns}),
    queued as (
      insert into jobs (account_id, space, source_id, max_attempts)
      select w.account_id, w.space, w.id, ${maxAttempts}::int from wanted w order by w.n)
    select * from added`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.map(({ id }) => ({ ...byId.get(id)!, memories: 0, retry_at: null }));
}

/**
 * The sources to store, each a new id, and their columns as one array each: the statements
 * that store them read the arrays (`unnest`), so they have the same text for one source or a
 * hundred, in one space or many. The store parses and plans each text once (a named statement,
 * store/prepared.ts) instead of once per count of sources and spaces: a group of saves of a
 * size not seen before cost 5 to 25 ms of planning on the embedded store's one connection.
 */
function sourceColumnsOf(items: readonly { scope: Scope; source: NewSource }[]) {
  const wanted = items.map(({ scope, source }) => ({ id: newSourceId(), scope, source }));
  const column = <T>(of: (item: (typeof wanted)[number]) => T) => wanted.map(of);
  const columns = {
    id: column(({ id }) => id),
    accountId: column(({ scope }) => scope.accountId),
    space: column(({ scope }) => scope.space),
    kind: column(({ source }) => source.kind),
    title: column(({ source }) => source.title ?? null),
    url: column(({ source }) => source.url ?? null),
    path: column(({ source }) => source.path ?? null),
    body: column(({ source }) => source.body ?? null),
    messages: column(({ source }) => (source.messages ? JSON.stringify(source.messages) : null)),
    correctsMemoryId: column(({ source }) => source.correctsMemoryId ?? null),
    tokens: column(({ source }) => tokensOf(source)),
    status: column(({ source }) => (source.waiting ? 'waiting' : 'queued')),
    project: column(({ source }) => source.project ?? null),
  };
  return { wanted, columns };
}

/** `wanted`: the sources to store, one row each in the order given (`n`). */
const wantedSources = (columns: ReturnType<typeof sourceColumnsOf>['columns']) => sql`
  wanted as (
    select * from unnest(${columns.id}::text[], ${columns.accountId}::int[], ${columns.space}::text[], ${columns.kind}::text[],
      ${columns.title}::text[], ${columns.url}::text[], ${columns.path}::text[], ${columns.body}::text[], ${columns.messages}::text[],
      ${columns.correctsMemoryId}::int[], ${columns.tokens}::int[], ${columns.status}::text[], ${columns.project}::text[])
    with ordinality as w(id, account_id, space, kind, title, url, path, body, messages, corrects_memory_id, tokens, status, project, n))`;

/**
 * Each space of `wanted` opened as `ensureSpace` opens one: inserted only when missing. The
 * sources' foreign key is checked at the statement's end, when the spaces inserted here are seen.
 */
const openedSpaces = sql`
  opened as (
    insert into spaces (account_id, name)
    select distinct w.account_id, w.space from wanted w
    where not exists (select 1 from spaces x where x.account_id = w.account_id and x.name = w.space)
    on conflict do nothing)`;

/** The rows of `wanted` as the sources' insert takes them, in the order given. */
const addedSources = sql`
  select w.id, w.account_id, w.space, w.kind, w.title, w.url, w.path, w.body, w.messages::jsonb, w.corrects_memory_id, w.tokens,
    w.status, w.project
  from wanted w order by w.n`;

/**
 * A source's columns with the count of its current memories, kept as they change
 * (store/memory-counts.ts), from `sourcesWithCounts`. When a failed attempt runs again is read
 * apart (`withRetryAt`): the queue may be a table of its own (docs/citus.sql), which a
 * correlated subquery from the sources could not reach.
 */
/** A source's own columns (`s`), as a listing reads them and an insert returns them. */
const rowColumns = sql`
  s.id, s.account_id, s.space, s.kind, s.title, s.url, s.path, s.status, s.error, s.corrects_memory_id,
  s.tokens, s.written_at, s.created_at, s.learned_at, s.project, s.attempts`;

const sourceColumns = sql`${rowColumns}, coalesce(c.count, 0) as memories`;

const sourcesWithCounts = sql`
  sources s left join source_memory_counts c on c.account_id = s.account_id and c.source_id = s.id`;

/** Gives each queued source when its next attempt is due, while it waits after a failed one (one read of the queue). */
async function withRetryAt<T extends Omit<SourceRow, 'retry_at'>>(db: Db, accountId: number, rows: T[]): Promise<(T & SourceRow)[]> {
  const queued = rows.filter((row) => row.status === 'queued').map((row) => row.id);
  const due = new Map<string, Date>();
  if (queued.length) {
    const { rows: jobs } = await sql<{ source_id: string; run_at: Date }>`
      select j.source_id, j.run_at from jobs j
      where j.account_id = ${accountId} and j.source_id = any(${queued}::text[])
        and j.locked_at is null and j.attempts > 0 and j.run_at > now()`.execute(db);
    for (const job of jobs) due.set(job.source_id, job.run_at);
  }
  return rows.map((row) => ({ ...row, retry_at: due.get(row.id) ?? null }));
}

/** One source of the scope, without its body. */
export async function findSource(db: Db, scope: Scope, id: string): Promise<SourceRow | null> {
  const { rows } = await sql<Omit<SourceRow, 'retry_at'>>`
    select ${sourceColumns} from ${sourcesWithCounts}
    where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.id = ${id}`.execute(db);
  return (await withRetryAt(db, scope.accountId, rows))[0] ?? null;
}

/** One source with its body and messages, for learning. */
export async function loadSourceContent(db: Db, scope: Scope, id: string): Promise<SourceRow | null> {
  const { rows } = await sql<Omit<SourceRow, 'retry_at'>>`
    select ${sourceColumns}, s.body, s.messages from ${sourcesWithCounts}
    where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.id = ${id}`.execute(db);
  return rows[0] ? { ...rows[0], retry_at: null } : null;
}

/**
 * A page of the scope's sources, newest first, starting after a source (by its sequence number)
 * or a count of sources; `more` tells whether any follow. The page's sources are found on the
 * index first and only they are read whole, so a deep page costs little more than the first.
 */
export async function listSources(
  db: Db,
  scope: Scope,
  limit: number,
  start: PageStart,
): Promise<{ rows: (SourceRow & { seq: number })[]; total: number; more: boolean }> {
  const inScope = sql`s.account_id = ${scope.accountId} and s.space = ${scope.space}`;
  const order = sql`order by s.created_at desc, s.id desc`;
  const page =
    'after' in start
      ? sql`
        with anchor as (${anchor(scope, start.after)}),
        page as materialized (
          (select p.id from anchor a cross join lateral (
            select s.id, s.created_at from sources s where ${inScope} and (s.created_at, s.id) < (a.created_at, a.id) ${order} limit ${limit + 1}) p)
          union all
          (select s.id from sources s, anchor a where ${inScope} and a.inclusive and s.id = a.id))`
      : sql`with page as materialized (select s.id from sources s where ${inScope} ${order} limit ${limit + 1} offset ${start.offset})`;
  // The page's ids are read once (materialized) and its sources looked up by them: joined to the
  // table instead, a page was planned, while the statistics still took the space for empty (after
  // a burst of saves), as a loop reading the page again for every source of the space (69 ms for
  // 200 of 300 sources; 6 ms this way).
  const { rows } = await sql<Omit<SourceRow, 'retry_at'> & { seq: number }>`
    ${page}
    select ${sourceColumns}, s.seq from ${sourcesWithCounts}
    where s.account_id = ${scope.accountId} and s.id = any(array(select id from page)) ${order} limit ${limit + 1}`.execute(db);
  const count = await sql<{ total: number }>`
    select count(*)::int as total from sources where account_id = ${scope.accountId} and space = ${scope.space}`.execute(db);
  return { rows: await withRetryAt(db, scope.accountId, rows.slice(0, limit)), total: count.rows[0]!.total, more: rows.length > limit };
}

/**
 * Where the source with sequence number `seq` stands in the listing's order (the page after it
 * starts below it); when it is gone, the nearest earlier source of the scope (sources are
 * numbered as they are saved), which the page after it includes.
 */
const anchor = (scope: Scope, seq: number) => sql`
  select a.created_at, a.id, a.inclusive from (
    (select k.created_at, k.id, false as inclusive from sources k
      where k.seq = ${seq} and k.account_id = ${scope.accountId} and k.space = ${scope.space})
    union all
    (select k.created_at, k.id, true as inclusive from sources k
      where k.seq < ${seq} and k.account_id = ${scope.accountId} and k.space = ${scope.space} order by k.seq desc limit 1)
  ) a limit 1`;

/**
 * Deletes a source and every memory it alone taught. Memories that another source
 * also taught stay, and point at the oldest remaining one. Returns null when there
 * is no such source, else how many memories went.
 */
export async function deleteSource(db: Db, scope: Scope, id: string): Promise<number | null> {
  // On PostgreSQL a delete can deadlock with the learning job storing the same source's memories;
  // PostgreSQL rolls one of the two back whole, and when it is the delete, it runs again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await deleteSourceOnce(db, scope, id);
    } catch (error) {
      if (attempt >= DELETE_ATTEMPTS || !rolledBackByConflict(error)) throw error;
    }
  }
}

/** How many times a source's delete is tried when a conflicting transaction rolls it back. */
const DELETE_ATTEMPTS = 3;

function deleteSourceOnce(db: Db, scope: Scope, id: string): Promise<number | null> {
  return db.transaction().execute(async (transaction) => {
    const { rows } = await sql`
      select id from sources where account_id = ${scope.accountId} and space = ${scope.space} and id = ${id} for update`.execute(
      transaction,
    );
    if (!rows.length) return null;
    const deleted = await unlinkMemories(transaction, scope, [id], null);
    // The job is deleted by name, as the queue may be kept apart from the sources (docs/citus.sql).
    await sql`delete from jobs where account_id = ${scope.accountId} and source_id = ${id}`.execute(transaction);
    await sql`delete from sources where account_id = ${scope.accountId} and space = ${scope.space} and id = ${id}`.execute(transaction);
    return deleted;
  });
}

/** The API record of a source. */
export function toSourceRecord(row: SourceRow): Source {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    url: row.url,
    path: row.path,
    status: row.status,
    error: row.error,
    memories: row.memories,
    tokens: row.tokens,
    created_at: row.created_at.toISOString(),
    learned_at: row.learned_at ? row.learned_at.toISOString() : null,
    attempts: row.attempts,
    retry_at: row.retry_at && row.status === 'queued' ? row.retry_at.toISOString() : null,
  };
}

/** Marks a source learned within the caller's transaction: finished, with the tokens it cost. */
export async function finishSource(transaction: Db, accountId: number, sourceId: string, tokens: number): Promise<void> {
  await sql`
    update sources set status = 'finished', error = null, learned_at = now(), tokens = ${tokens}
    where account_id = ${accountId} and id = ${sourceId}`.execute(transaction);
}

/** Marks a source as waiting for the plan (within the caller's transaction). */
export async function markSourceWaiting(transaction: Db, accountId: number, sourceId: string): Promise<void> {
  await sql`update sources set status = 'waiting' where account_id = ${accountId} and id = ${sourceId}`.execute(transaction);
}

/** An uploaded file's bytes, kept with its source until a worker reads them; null when gone. */
export async function sourceFile(db: Db, accountId: number, sourceId: string): Promise<Uint8Array | null> {
  const { rows } = await sql<{
    file: Buffer | null;
  }>`select file from sources where account_id = ${accountId} and id = ${sourceId}`.execute(db);
  const file = rows[0]?.file;
  return file ? new Uint8Array(file.buffer, file.byteOffset, file.byteLength) : null;
}

/** Keeps an uploaded file's bytes with its source until a worker reads them (within the caller's transaction). */
export async function storeSourceFile(transaction: Db, accountId: number, sourceId: string, bytes: Uint8Array): Promise<void> {
  await sql`
    update sources set file = ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)}
    where account_id = ${accountId} and id = ${sourceId}`.execute(transaction);
}

/** Drops an uploaded file's bytes (they could not be read). */
export async function dropSourceFile(db: Db, accountId: number, sourceId: string): Promise<void> {
  await sql`update sources set file = null where account_id = ${accountId} and id = ${sourceId}`.execute(db);
}

/** Keeps the text read from a page or file as the source's body (its bytes are dropped). */
export async function keepReadText(
  db: Db,
  accountId: number,
  sourceId: string,
  read: { body: string; title: string | null; kind: SourceKind },
): Promise<void> {
  await sql`
    update sources set body = ${read.body}, title = ${read.title}, kind = ${read.kind}, file = null
    where account_id = ${accountId} and id = ${sourceId}`.execute(db);
}

/** A page of a space's finished sources after an id, with their current text (a file's), for indexing again. */
export async function finishedSourcesAfter(
  db: Db,
  scope: Scope,
  after: string,
  limit: number,
): Promise<Pick<SourceRow, 'id' | 'kind' | 'body' | 'messages' | 'written_at'>[]> {
  const { rows } = await sql<Pick<SourceRow, 'id' | 'kind' | 'body' | 'messages' | 'written_at'>>`
    select s.id, s.kind, coalesce(f.text, s.body) as body, s.messages, s.written_at
    from sources s left join files f on f.account_id = s.account_id and f.source_id = s.id
    where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.status = 'finished' and s.id > ${after}
    order by s.id limit ${limit}`.execute(db);
  return rows;
}

import { sql } from 'kysely';
import type { Db, Row } from './database.js';

/** One answered call, as the request log keeps it: never a body, never a key. */
export interface RequestLogEntry {
  accountId: number;
  at: Date;
  method: string;
  /** The route's pattern (`/v1/memories/:memory_id`), not the path, so ids stay out of the log. */
  route: string;
  status: number;
  space: string | null;
  /** The first characters of the key, as key listings show them. */
  keyPrefix: string;
  requestId: string;
  durationMs: number;
  errorType: string | null;
}

/** A logged call as the API answers it: the log's row without its account, the id a number. */
export type RequestLogRow = Omit<Row<'request_log'>, 'account_id' | 'id'> & { id: number };

/** What a listing of the log is narrowed to. */
export interface RequestLogFilter {
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string;
  space?: string;
  route?: string;
  requestId?: string;
  /** Rows older than this id (keyset pagination, newest first). */
  before?: number;
  limit: number;
}

/**
 * Writes many entries in one insert. The entries go as one array a column (`unnest`), so the
 * statement has the same text for any count of entries and the store plans it once, instead of
 * once for each count a flush happens to hold.
 */
export async function insertRequestLog(db: Db, entries: RequestLogEntry[]): Promise<void> {
  if (entries.length) await requestLogInsert(entries).execute(db);
}

/** The statement `insertRequestLog` runs: its text does not depend on how many entries it writes. */
export function requestLogInsert(entries: readonly RequestLogEntry[]) {
  const column = <T>(of: (entry: RequestLogEntry) => T) => entries.map(of);
  return sql`
    insert into request_log (account_id, at, method, route, status, space, key_prefix, request_id, duration_ms, error_type)
    select e.account_id, e.at, e.method, e.route, e.status, e.space, e.key_prefix, e.request_id, e.duration_ms, e.error_type
    from unnest(${column((entry) => entry.accountId)}::int[], ${column((entry) => entry.at)}::timestamptz[],
      ${column((entry) => entry.method)}::text[], ${column((entry) => entry.route)}::text[], ${column((entry) => entry.status)}::int[],
      ${column((entry) => entry.space)}::text[], ${column((entry) => entry.keyPrefix)}::text[], ${column((entry) => entry.requestId)}::text[],
      ${column((entry) => entry.durationMs)}::int[], ${column((entry) => entry.errorType)}::text[])
      with ordinality as e(account_id, at, method, route, status, space, key_prefix, request_id, duration_ms, error_type, n)
    order by e.n`;
}

/** Deletes the calls older than `days` days, of every account (the log's retention). */
export async function deleteOldRequests(db: Db, days: number): Promise<number> {
  const result = await sql`delete from request_log where at < now() - make_interval(days => ${days})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** An account's logged calls, newest first, narrowed by `filter`. */
export async function listRequests(db: Db, accountId: number, filter: RequestLogFilter): Promise<RequestLogRow[]> {
  const conditions = [sql`account_id = ${accountId}`];
  if (filter.status !== undefined) {
    const range = /^([1-5])xx$/i.exec(filter.status);
    if (range) {
      const low = Number(range[1]) * 100;
      conditions.push(sql`status >= ${low} and status < ${low + 100}`);
    } else {
      conditions.push(sql`status = ${Number(filter.status)}`);
    }
  }
  if (filter.space !== undefined) conditions.push(sql`space = ${filter.space}`);
  if (filter.route !== undefined) conditions.push(sql`route = ${filter.route}`);
  if (filter.requestId !== undefined) conditions.push(sql`request_id = ${filter.requestId}`);
  if (filter.before !== undefined) conditions.push(sql`id < ${filter.before}`);
  const { rows } = await sql<Row<'request_log'>>`
    select id, at, method, route, status, space, key_prefix, request_id, duration_ms, error_type from request_log
    where ${sql.join(conditions, sql` and `)}
    order by id desc limit ${filter.limit}`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** One day of the usage chart. */
export interface DailyUsageRow {
  /** YYYY-MM-DD, in UTC. */
  day: string;
  learned_tokens: number;
  answers: number;
}

/**
 * Learned tokens per day (the tokens of sources that finished learning that day) and answers
 * per day (the log's successful calls of /v1/ask and /v1/context), for the last `days` days in UTC,
 * oldest first, with every day present.
 */
export async function dailyUsage(db: Db, accountId: number, days: number, now: Date): Promise<DailyUsageRow[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * 86_400_000);
  const learned = await sql<{ day: string; tokens: string | number }>`
    select to_char(learned_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(tokens) as tokens from sources
    where account_id = ${accountId} and status = 'finished' and learned_at >= ${first}
    group by 1`.execute(db);
  const answers = await sql<{ day: string; answers: string | number }>`
    select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as answers from request_log
    where account_id = ${accountId} and status = 200 and route in ('/v1/ask', '/v1/context') and at >= ${first}
    group by 1`.execute(db);
  const tokensByDay = new Map(learned.rows.map((row) => [row.day, Number(row.tokens)]));
  const answersByDay = new Map(answers.rows.map((row) => [row.day, Number(row.answers)]));
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(first.getTime() + index * 86_400_000).toISOString().slice(0, 10);
    return { day, learned_tokens: tokensByDay.get(day) ?? 0, answers: answersByDay.get(day) ?? 0 };
  });
}

/** The routes whose calls read a space's index copy (store/memory-index.ts). */
const RECALL_ROUTES = ['/v1/search', '/v1/context', '/v1/ask'];

/**
 * The spaces recall was last asked of, most recent first, among the last `scanned` recall calls
 * the log holds (read newest first by its time index, so the cost is bounded however long the log
 * is), each with its current memories. For warming the index copies at start.
 */
export async function recentRecallSpaces(
  db: Db,
  options: { limit: number; scanned?: number },
): Promise<{ accountId: number; space: string; memories: number }[]> {
  const { rows } = await sql<{ account_id: number; space: string; memories: number }>`
    select r.account_id, r.space,
      (select coalesce(sum(k.count), 0)::int from space_memory_counts k
        where k.account_id = r.account_id and k.space = r.space and k.kind <> 'raw') as memories
    from (select account_id, space, at from request_log
      where route = any(${RECALL_ROUTES}::text[]) and status < 400 and space is not null
      order by at desc limit ${options.scanned ?? 10_000}) r
    group by r.account_id, r.space
    order by max(r.at) desc
    limit ${options.limit}`.execute(db);
  return rows.map((row) => ({ accountId: row.account_id, space: row.space, memories: row.memories }));
}

import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../database.js';
import { storeRawPassages } from '../../passage-repository.js';
import type { Scope } from '../../scope.js';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { keysetRows, sizedBatches } from '../record-kind.js';

const timestamp = z.string().min(1).max(40);

const SourceLineSchema = z.object({
  type: z.literal('source'),
  id: z.string().min(1).max(100),
  kind: z.enum(['note', 'page', 'conversation', 'pdf', 'docx', 'file']),
  title: z.string().nullable(),
  url: z.string().nullable(),
  path: z.string().nullable(),
  status: z.enum(['queued', 'learning', 'finished', 'failed', 'waiting']),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
  body: z.string().nullable(),
  messages: z.array(z.unknown()).nullable(),
  corrects_memory_id: z.number().int().positive().nullable(),
  tokens: z.number().int().nonnegative(),
  written_at: timestamp,
  created_at: timestamp,
  learned_at: timestamp.nullable(),
  /** An uploaded file not yet read (its bytes are dropped once read), base64. */
  file: z.string().nullable(),
  /** The project it belongs to (format 2; absent from version-1 files). */
  project: z.string().nullable().default(null),
  /** How many attempts its learning took (format 2; absent from version-1 files). */
  attempts: z.number().int().nonnegative().default(0),
});

/** A source as exported: what was added, with its text (or a file's bytes while it waits to be read). */
export type SourceLine = z.infer<typeof SourceLineSchema>;

const PAGE = 500;
/** Sources read at once hold at most about this much text and bytes. */
const BATCH_BYTES = 4 * 1024 * 1024;

async function* sourceLines(db: Db, scope: Scope): AsyncIterable<SourceLine> {
  const pages = keysetRows(
    async (after: string | null) => {
      const { rows } = await sql<{ id: string; bytes: number }>`
        select id, coalesce(pg_column_size(body), 0) + coalesce(pg_column_size(messages), 0) + coalesce(pg_column_size(file), 0) as bytes
        from sources
        where account_id = ${scope.accountId} and space = ${scope.space} and ${after === null ? sql`true` : sql`(id collate "C") > ${after}`}
        order by (id collate "C") limit ${PAGE}`.execute(db);
      return rows;
    },
    (row) => row.id,
    PAGE,
  );
  let page: { key: string; bytes: number }[] = [];
  const flush = async function* () {
    for (const ids of sizedBatches(page, BATCH_BYTES)) {
      const { rows } = await sql<Omit<SourceLine, 'type' | 'file'> & { file: Buffer | null }>`
        select id, kind, title, url, path, status, error, body, messages, corrects_memory_id, tokens,
          ${iso(sql.ref('written_at'))} as written_at, ${iso(sql.ref('created_at'))} as created_at,
          ${iso(sql.ref('learned_at'))} as learned_at, file, project, attempts
        from sources where account_id = ${scope.accountId} and space = ${scope.space} and id = any(${ids}::text[])
        order by (id collate "C")`.execute(db);
      for (const row of rows) {
        yield { type: 'source' as const, ...row, file: row.file ? row.file.toString('base64') : null } satisfies SourceLine;
      }
    }
    page = [];
  };
  for await (const row of pages) {
    page.push({ key: row.id, bytes: row.bytes });
    if (page.length === PAGE) yield* flush();
  }
  yield* flush();
}

/**
 * Sources: what was added (notes, conversations, pages, PDF and Word files, files, corrections).
 * Restored as they were: a finished or failed source is never learned again. One exported
 * before it was learned (queued or learning) has learned nothing yet: it is restored queued,
 * with its learning job; one waiting for the plan waits again, searchable by its raw passages.
 * A finished or failed source keeps its project and how many attempts its learning took (the
 * sources API shows both); one restored queued starts again at no attempts, as its new job does.
 */
export const sources: RecordKind<SourceLine> = {
  type: 'source',
  level: 'space',
  description: 'sources with their text, messages or unread file bytes (base64), project, status, error, attempts and dates',
  schema: SourceLineSchema,
  lines: sourceLines,
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const id = await ids.source(transaction, line.id);
    const { rows: present } = await sql`select 1 from sources where account_id = ${scope.accountId} and id = ${id}`.execute(transaction);
    if (present.length) return false;
    const corrects = line.corrects_memory_id === null ? null : await ids.memory(transaction, line.corrects_memory_id);
    const unlearned = line.status === 'queued' || line.status === 'learning';
    const status = unlearned ? 'queued' : line.status;
    await sql`
      insert into sources (id, account_id, space, kind, title, url, path, status, error, body, messages, corrects_memory_id,
        tokens, written_at, created_at, learned_at, file, project, attempts)
      values (${id}, ${scope.accountId}, ${scope.space}, ${line.kind}, ${line.title}, ${line.url}, ${line.path}, ${status},
        ${line.error ? JSON.stringify(line.error) : null}::jsonb, ${line.body},
        ${line.messages ? JSON.stringify(line.messages) : null}::jsonb, ${corrects}, ${line.tokens},
        ${line.written_at}::timestamptz, ${line.created_at}::timestamptz, ${line.learned_at}::timestamptz,
        ${line.file === null ? null : Buffer.from(line.file, 'base64')}, ${line.project}, ${unlearned ? 0 : line.attempts})`.execute(
      transaction,
    );
    if (unlearned) {
      await sql`
        insert into jobs (account_id, space, source_id, max_attempts)
        values (${scope.accountId}, ${scope.space}, ${id}, ${context.maxAttempts})`.execute(transaction);
    } else if (status === 'waiting') {
      await storeRawPassages(transaction, scope, { id, body: line.body, messages: line.messages }, new Date(line.written_at));
    }
    return true;
  },
};

import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../database.js';
import type { Scope } from '../../scope.js';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { keysetRows, sizedBatches } from '../record-kind.js';

const timestamp = z.string().min(1).max(40);

const FileLineSchema = z.object({
  type: z.literal('file'),
  path: z.string().min(1).max(255),
  text: z.string(),
  size: z.number().int().nonnegative(),
  labels: z.record(z.string(), z.string()),
  source_id: z.string().min(1).max(100),
  created_at: timestamp,
  updated_at: timestamp,
});

/** A file as exported: its text exactly as written, its labels, and the source it is learned as. */
export type FileLine = z.infer<typeof FileLineSchema>;

const PAGE = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

async function* fileLines(db: Db, scope: Scope): AsyncIterable<FileLine> {
  const pages = keysetRows(
    async (after: string | null) => {
      const { rows } = await sql<{ path: string; bytes: number }>`
        select path, pg_column_size(text) as bytes from files
        where account_id = ${scope.accountId} and space = ${scope.space} and ${after === null ? sql`true` : sql`path > ${after}`}
        order by path limit ${PAGE}`.execute(db);
      return rows;
    },
    (row) => row.path,
    PAGE,
  );
  let page: { key: string; bytes: number }[] = [];
  const flush = async function* () {
    for (const paths of sizedBatches(page, BATCH_BYTES)) {
      const { rows } = await sql<Omit<FileLine, 'type'>>`
        select path, text, size, labels, source_id, ${iso(sql.ref('created_at'))} as created_at, ${iso(sql.ref('updated_at'))} as updated_at
        from files where account_id = ${scope.accountId} and space = ${scope.space} and path = any(${paths}::text[])
        order by path`.execute(db);
      for (const row of rows) yield { type: 'file' as const, ...row };
    }
    page = [];
  };
  for await (const row of pages) {
    page.push({ key: row.path, bytes: row.bytes });
    if (page.length === PAGE) yield* flush();
  }
  yield* flush();
}

/** Files kept under a path, with their labels; each is one source (of kind file), restored before it. */
export const files: RecordKind<FileLine> = {
  type: 'file',
  level: 'space',
  description: 'files: path, text exactly as written, labels, and the source they are learned as',
  schema: FileLineSchema,
  lines: fileLines,
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const sourceId = await ids.source(transaction, line.source_id);
    const { rows } = await sql`
      insert into files (account_id, space, path, text, size, labels, source_id, created_at, updated_at)
      select ${scope.accountId}, ${scope.space}, ${line.path}, ${line.text}, ${line.size}, ${JSON.stringify(line.labels)}::jsonb,
        ${sourceId}, ${line.created_at}::timestamptz, ${line.updated_at}::timestamptz
      where exists (select 1 from sources where id = ${sourceId} and account_id = ${scope.accountId} and space = ${scope.space})
      on conflict do nothing returning path`.execute(transaction);
    return rows.length > 0;
  },
};

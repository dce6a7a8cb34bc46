import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { numberedRows, rowId, sourceInSpace } from './numbered-rows.js';

const EpisodeLineSchema = z.object({
  type: z.literal('episode'),
  id: z.number().int().positive(),
  project: z.string().nullable(),
  title: z.string(),
  summary: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  source_id: z.string().min(1).max(100),
  created_at: z.string().min(1).max(40),
});

/** An episode: what one source (a meeting, a conversation) was about, its title, summary and day. */
export type EpisodeLine = z.infer<typeof EpisodeLineSchema>;

/** Episodes (GET /v1/episodes), one a source at most. */
export const episodes: RecordKind<EpisodeLine> = {
  type: 'episode',
  level: 'space',
  description: 'episodes with their title, summary, day and the source each summarises',
  schema: EpisodeLineSchema,
  async *lines(db, scope) {
    const rows = numberedRows<any>(
      db,
      scope,
      'episodes',
      sql`project, title, summary, to_char(date, 'YYYY-MM-DD') as date, source_id, ${iso(sql.ref('created_at'))} as created_at`,
    );
    for await (const row of rows) yield { type: 'episode' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const sourceId = await ids.source(transaction, line.source_id);
    const id = await rowId(transaction, 'episodes', line.id);
    const { rows } = await sql`
      insert into episodes (id, account_id, space, project, title, summary, date, source_id, created_at)
      overriding system value
      select ${id}, ${scope.accountId}, ${scope.space}, ${line.project}, ${line.title}, ${line.summary}, ${line.date}::date,
        ${sourceId}, ${line.created_at}::timestamptz
      where ${sourceInSpace(scope, sourceId)}
      on conflict do nothing returning id`.execute(transaction);
    return rows.length > 0;
  },
  sequence: { table: 'episodes', idOf: (line) => line.id },
};

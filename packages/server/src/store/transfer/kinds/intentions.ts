import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { numberedRows, rowId, sourceInSpace } from './numbered-rows.js';

const timestamp = z.string().min(1).max(40);

const IntentionLineSchema = z.object({
  type: z.literal('intention'),
  id: z.number().int().positive(),
  project: z.string().nullable(),
  text: z.string(),
  key: z.string(),
  status: z.string().min(1).max(40),
  due: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  triggers: z.array(z.unknown()),
  source_id: z.string().min(1).max(100),
  created_at: timestamp,
  updated_at: timestamp,
});

/** An intention: what the user means to do, its status (open, done, dropped), due day and triggers. */
export type IntentionLine = z.infer<typeof IntentionLineSchema>;

/** Intentions (GET /v1/intentions), open or marked done or dropped, with the ids the API showed. */
export const intentions: RecordKind<IntentionLine> = {
  type: 'intention',
  level: 'space',
  description: 'intentions with their status, due day, triggers and the source that taught each',
  schema: IntentionLineSchema,
  async *lines(db, scope) {
    const rows = numberedRows<any>(
      db,
      scope,
      'intentions',
      sql`project, text, key, status, to_char(due, 'YYYY-MM-DD') as due, triggers, source_id,
        ${iso(sql.ref('created_at'))} as created_at, ${iso(sql.ref('updated_at'))} as updated_at`,
    );
    for await (const row of rows) yield { type: 'intention' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const sourceId = await ids.source(transaction, line.source_id);
    const id = await rowId(transaction, 'intentions', line.id);
    const { rows } = await sql`
      insert into intentions (id, account_id, space, project, text, key, status, due, triggers, source_id, created_at, updated_at)
      overriding system value
      select ${id}, ${scope.accountId}, ${scope.space}, ${line.project}, ${line.text}, ${line.key}, ${line.status}, ${line.due}::date,
        ${JSON.stringify(line.triggers)}::jsonb, ${sourceId}, ${line.created_at}::timestamptz, ${line.updated_at}::timestamptz
      where ${sourceInSpace(scope, sourceId)}
      on conflict do nothing returning id`.execute(transaction);
    return rows.length > 0;
  },
  sequence: { table: 'intentions', idOf: (line) => line.id },
};

import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { numberedRows, rowId, sourceInSpace } from './numbered-rows.js';

const timestamp = z.string().min(1).max(40);

const StateItemLineSchema = z.object({
  type: z.literal('state_item'),
  id: z.number().int().positive(),
  project: z.string(),
  field: z.string().min(1),
  text: z.string(),
  key: z.string(),
  done: z.boolean(),
  said_at: timestamp,
  position: z.number().int(),
  source_id: z.string().min(1).max(100),
  created_at: timestamp,
});

/** One statement of a project's state, as a source said it. */
export type StateItemLine = z.infer<typeof StateItemLineSchema>;

/** The state of each project (GET /v1/now): one statement a row, each pointing at the source that said it. */
export const stateItems: RecordKind<StateItemLine> = {
  type: 'state_item',
  level: 'space',
  description: "statements of each project's state (what GET /v1/now shows), with the source that said each",
  schema: StateItemLineSchema,
  async *lines(db, scope) {
    const rows = numberedRows<any>(
      db,
      scope,
      'state_items',
      sql`project, field, text, key, done, ${iso(sql.ref('said_at'))} as said_at, position, source_id, ${iso(sql.ref('created_at'))} as created_at`,
    );
    for await (const row of rows) yield { type: 'state_item' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const sourceId = await ids.source(transaction, line.source_id);
    const id = await rowId(transaction, 'state_items', line.id);
    const { rows } = await sql`
      insert into state_items (id, account_id, space, project, field, text, key, done, said_at, position, source_id, created_at)
      overriding system value
      select ${id}, ${scope.accountId}, ${scope.space}, ${line.project}, ${line.field}, ${line.text}, ${line.key}, ${line.done},
        ${line.said_at}::timestamptz, ${line.position}, ${sourceId}, ${line.created_at}::timestamptz
      where ${sourceInSpace(scope, sourceId)}
      on conflict do nothing returning id`.execute(transaction);
    return rows.length > 0;
  },
  sequence: { table: 'state_items', idOf: (line) => line.id },
};

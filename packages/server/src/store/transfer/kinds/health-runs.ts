import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { numberedRows, rowId } from './numbered-rows.js';

const timestamp = z.string().min(1).max(40);

const HealthRunLineSchema = z.object({
  type: z.literal('health_run'),
  id: z.number().int().positive(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  nightly: z.boolean(),
  claimed_by: z.string(),
  claimed_at: timestamp,
  finished_at: timestamp.nullable(),
  asked: z.number().int().nonnegative(),
  score: z.number(),
  health: z.number().nullable(),
  /** The questions asked, each with the memories it was written from. */
  items: z.array(z.object({ memory_ids: z.array(z.number().int().positive()) }).passthrough()),
});

/** A memory-health test of the space: when it ran, what it asked and how the space answered. */
export type HealthRunLine = z.infer<typeof HealthRunLineSchema>;

/**
 * Memory-health runs (GET /v1/memory-health shows the last finished one), nightly or asked
 * for. A nightly run keeps its day, so the restored space is not tested again that night.
 */
export const healthRuns: RecordKind<HealthRunLine> = {
  type: 'health_run',
  level: 'space',
  description: 'memory-health tests: day, whether nightly, when run and finished, questions asked with their memories, score and health',
  schema: HealthRunLineSchema,
  async *lines(db, scope) {
    const rows = numberedRows<any>(
      db,
      scope,
      'health_runs',
      sql`to_char(day, 'YYYY-MM-DD') as day, nightly, claimed_by, ${iso(sql.ref('claimed_at'))} as claimed_at,
        ${iso(sql.ref('finished_at'))} as finished_at, asked, score, health, items`,
    );
    for await (const row of rows) yield { type: 'health_run' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    // Restored before: the same run of the space (same day, kind and start).
    const { rows: present } = await sql`
      select 1 from health_runs
      where account_id = ${scope.accountId} and space = ${scope.space} and day = ${line.day}::date and nightly = ${line.nightly}
        and claimed_at = ${line.claimed_at}::timestamptz`.execute(transaction);
    if (present.length) return false;
    const items = [];
    for (const item of line.items) {
      const memoryIds = [];
      for (const memoryId of item.memory_ids) memoryIds.push(await ids.memory(transaction, memoryId));
      items.push({ ...item, memory_ids: memoryIds });
    }
    const id = await rowId(transaction, 'health_runs', line.id);
    const { rows } = await sql`
      insert into health_runs (id, account_id, space, day, nightly, claimed_by, claimed_at, finished_at, asked, score, health, items)
      overriding system value
      values (${id}, ${scope.accountId}, ${scope.space}, ${line.day}::date, ${line.nightly}, ${line.claimed_by},
        ${line.claimed_at}::timestamptz, ${line.finished_at}::timestamptz, ${line.asked}, ${line.score}, ${line.health},
        ${JSON.stringify(items)}::jsonb)
      on conflict do nothing returning id`.execute(transaction);
    return rows.length > 0;
  },
  sequence: { table: 'health_runs', idOf: (line) => line.id },
};

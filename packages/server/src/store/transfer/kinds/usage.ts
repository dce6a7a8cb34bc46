import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';

const UsageLineSchema = z.object({
  type: z.literal('usage'),
  period_start: z.string().min(1).max(40),
  learned_tokens: z.number().int().nonnegative(),
  answers: z.number().int().nonnegative(),
});

/** What the space used in one month. */
export type UsageLine = z.infer<typeof UsageLineSchema>;

/** Monthly usage of the space (learned tokens and answers), so a moved account keeps its month's figures. */
export const usage: RecordKind<UsageLine> = {
  type: 'usage',
  level: 'space',
  description: "the space's learned tokens and answers, month by month",
  schema: UsageLineSchema,
  async *lines(db, scope) {
    // A few rows a space (one a month): read at once.
    const { rows } = await sql<Omit<UsageLine, 'type'>>`
      select ${iso(sql.ref('period_start'))} as period_start, learned_tokens, answers from usage_counters
      where account_id = ${scope.accountId} and space = ${scope.space} order by period_start`.execute(db);
    for (const row of rows) yield { type: 'usage' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { rows } = await sql`
      insert into usage_counters (account_id, space, period_start, learned_tokens, answers)
      values (${context.scope.accountId}, ${context.scope.space}, ${line.period_start}::timestamptz, ${line.learned_tokens}, ${line.answers})
      on conflict do nothing returning space`.execute(transaction);
    return rows.length > 0;
  },
};

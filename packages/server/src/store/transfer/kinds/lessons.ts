import { sql } from 'kysely';
import { z } from 'zod';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { numberedRows, rowId, sourceInSpace } from './numbered-rows.js';

const LessonLineSchema = z.object({
  type: z.literal('lesson'),
  id: z.number().int().positive(),
  project: z.string().nullable(),
  lesson_type: z.string().min(1).max(40),
  text: z.string(),
  key: z.string(),
  applies_when: z.string().nullable(),
  why: z.string().nullable(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  source_id: z.string().min(1).max(100),
  created_at: z.string().min(1).max(40),
});

/** A lesson: what was learned (its `lesson_type`), when it applies, why, and its day. */
export type LessonLine = z.infer<typeof LessonLineSchema>;

/** Lessons (GET /v1/lessons), each with the source that taught it. */
export const lessons: RecordKind<LessonLine> = {
  type: 'lesson',
  level: 'space',
  description: 'lessons with their type, when they apply, why, their day and the source that taught each',
  schema: LessonLineSchema,
  async *lines(db, scope) {
    const rows = numberedRows<any>(
      db,
      scope,
      'lessons',
      sql`project, type as lesson_type, text, key, applies_when, why, to_char(date, 'YYYY-MM-DD') as date, source_id,
        ${iso(sql.ref('created_at'))} as created_at`,
    );
    // The table's `type` column is the lesson's; the line's `type` names the kind of line.
    for await (const row of rows) yield { type: 'lesson' as const, ...row };
  },
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const sourceId = await ids.source(transaction, line.source_id);
    const id = await rowId(transaction, 'lessons', line.id);
    const { rows } = await sql`
      insert into lessons (id, account_id, space, project, type, text, key, applies_when, why, date, source_id, created_at)
      overriding system value
      select ${id}, ${scope.accountId}, ${scope.space}, ${line.project}, ${line.lesson_type}, ${line.text}, ${line.key},
        ${line.applies_when}, ${line.why}, ${line.date}::date, ${sourceId}, ${line.created_at}::timestamptz
      where ${sourceInSpace(scope, sourceId)}
      on conflict do nothing returning id`.execute(transaction);
    return rows.length > 0;
  },
  sequence: { table: 'lessons', idOf: (line) => line.id },
};

import { sql } from 'kysely';
import { z } from 'zod';
import type { Db, Row } from '../../database.js';
import { countMemoriesOf } from '../../memory-counts.js';
import type { Scope } from '../../scope.js';
import { iso } from '../format.js';
import type { RecordKind } from '../record-kind.js';
import { keysetRows } from '../record-kind.js';

const timestamp = z.string().min(1).max(40);

const SentenceSchema = z.object({
  text: z.string(),
  message_index: z.number().int().nullable(),
  start: z.number().int(),
  end: z.number().int(),
});

const MemoryLineSchema = z.object({
  type: z.literal('memory'),
  id: z.number().int().positive(),
  source_id: z.string().min(1).max(100),
  text: z.string(),
  kind: z.enum(['people', 'plan', 'pref', 'detail']),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  about: z.array(z.string()),
  labels: z.record(z.string(), z.string()),
  status: z.enum(['current', 'replaced', 'wrong']),
  fingerprint: z.string(),
  slot: z.string().nullable(),
  reported: z.boolean(),
  sentence: SentenceSchema,
  created_at: timestamp,
  updated_at: timestamp,
  /** What recall finds it by (a Postgres tsvector as text), so that search answers as it did without learning again. */
  index: z.string(),
  /** Every source that taught it, with the sentence it came from there. */
  sources: z.array(z.object({ source_id: z.string().min(1).max(100), sentence: SentenceSchema, created_at: timestamp })),
  /** What each name of `about` names (person, place, org, thing), or null when not yet known (format 2; absent from version-1 files). */
  name_types: z.array(z.string()).nullable().default(null),
  /** Whether the fact lasts or holds for now; null when not yet known (format 2). */
  lasting: z.boolean().nullable().default(null),
  /** Whether it speaks of the owner; null when not yet known (format 2). */
  owner: z.boolean().nullable().default(null),
  /** Its history, oldest first. */
  history: z.array(
    z.object({
      event: z.string(),
      at: timestamp,
      memory_id: z.number().int().positive().nullable(),
      source_id: z.string().nullable(),
      text: z.string().nullable(),
    }),
  ),
});

/** A memory as exported: its words, kind, dates, status, the sentence it came from, its sources and history. */
export type MemoryLine = z.infer<typeof MemoryLineSchema>;

/** Memories read at once; each line is a few kB at most (its text, sentences and index). */
const PAGE = 500;

/** A memory as the export reads it: the line's fields, its sentence as columns, its sources as JSON. */
type ExportedMemory = Omit<MemoryLine, 'type' | 'sentence' | 'sources'> &
  Pick<Row<'memories'>, 'sentence_text' | 'message_index' | 'sentence_start' | 'sentence_end'> & {
    sources: { source_id: string; text: string; message_index: number | null; start: number; end: number; created_at: string }[];
  };

function memoryLines(db: Db, scope: Scope): AsyncIterable<MemoryLine> {
  return keysetRows(
    async (after: number | null) => {
      // Raw passages of a source waiting for the plan are not memories: restoring the source writes them again.
      const { rows } = await sql<ExportedMemory>`
        select m.id, m.source_id, m.text, m.kind, to_char(m.date, 'YYYY-MM-DD') as date, m.about, m.labels, m.status,
          m.fingerprint, m.slot, m.reported, m.sentence_text, m.message_index, m.sentence_start, m.sentence_end,
          ${iso(sql.ref('m.created_at'))} as created_at, ${iso(sql.ref('m.updated_at'))} as updated_at, m.tsv::text as index,
          m.name_types, m.lasting, m.owner,
          (select coalesce(json_agg(json_build_object('source_id', ms.source_id, 'text', ms.sentence_text,
              'message_index', ms.message_index, 'start', ms.sentence_start, 'end', ms.sentence_end,
              'created_at', ${iso(sql.ref('ms.created_at'))}) order by ms.created_at, ms.source_id collate "C"), '[]')
            from memory_sources ms where ms.account_id = m.account_id and ms.memory_id = m.id) as sources,
          (select coalesce(json_agg(json_build_object('event', e.event, 'at', ${iso(sql.ref('e.at'))},
              'memory_id', e.other_memory_id, 'source_id', e.source_id, 'text', e.text) order by e.id), '[]')
            from memory_events e where e.account_id = m.account_id and e.memory_id = m.id) as history
        from memories m
        where m.account_id = ${scope.accountId} and m.space = ${scope.space} and not m.raw and m.id > ${after ?? 0}
        order by m.id limit ${PAGE}`.execute(db);
      return rows.map(
        (row): MemoryLine => ({
          type: 'memory',
          id: row.id,
          source_id: row.source_id,
          text: row.text,
          kind: row.kind,
          date: row.date,
          about: row.about,
          labels: row.labels,
          status: row.status,
          fingerprint: row.fingerprint,
          slot: row.slot,
          reported: row.reported,
          sentence: { text: row.sentence_text, message_index: row.message_index, start: row.sentence_start, end: row.sentence_end },
          created_at: row.created_at,
          updated_at: row.updated_at,
          index: row.index,
          name_types: row.name_types,
          lasting: row.lasting,
          owner: row.owner,
          sources: row.sources.map((link) => ({
            source_id: link.source_id,
            sentence: { text: link.text, message_index: link.message_index, start: link.start, end: link.end },
            created_at: link.created_at,
          })),
          history: row.history.map((event) => ({
            event: event.event,
            at: event.at,
            memory_id: event.memory_id,
            source_id: event.source_id,
            text: event.text,
          })),
        }),
      );
    },
    (row) => row.id,
    PAGE,
  );
}

/**
 * Memories of every status (current, replaced, wrong) with their links to the sources that
 * taught them and their history. Restored exactly, index included, so nothing is learned again.
 */
export const memories: RecordKind<MemoryLine> = {
  type: 'memory',
  level: 'space',
  description:
    'memories (current, replaced and wrong): text, kind, date, names and what they name, labels, slot, whether it lasts and speaks of the owner, the sentence each came from, every source that taught it, its history and its search index',
  schema: MemoryLineSchema,
  lines: memoryLines,
  async restore(transaction, context, line) {
    const { scope, ids } = context;
    const id = await ids.memory(transaction, line.id);
    const { rows: present } = await sql`select 1 from memories where account_id = ${scope.accountId} and id = ${id}`.execute(transaction);
    if (present.length) return false;
    const sourceId = await ids.source(transaction, line.source_id);
    const { rows: inserted } = await sql`
      insert into memories (id, account_id, space, source_id, text, kind, date, about, labels, status, fingerprint, slot, reported,
        sentence_text, message_index, sentence_start, sentence_end, created_at, updated_at, tsv, name_types, lasting, owner)
      overriding system value
      values (${id}, ${scope.accountId}, ${scope.space}, ${sourceId}, ${line.text}, ${line.kind}, ${line.date}::date,
        ${line.about}::text[], ${JSON.stringify(line.labels)}::jsonb, ${line.status}, ${line.fingerprint}, ${line.slot}, ${line.reported},
        ${line.sentence.text}, ${line.sentence.message_index}, ${line.sentence.start}, ${line.sentence.end},
        ${line.created_at}::timestamptz, ${line.updated_at}::timestamptz, ${line.index}::tsvector,
        ${line.name_types}::text[], ${line.lasting}, ${line.owner})
      on conflict do nothing returning id`.execute(transaction);
    // The same fact already current in the space (learned there since): the space keeps its own.
    if (!inserted.length) return false;
    const links = [];
    for (const link of line.sources) {
      links.push({
        source_id: await ids.source(transaction, link.source_id),
        text: link.sentence.text,
        message_index: link.sentence.message_index,
        start: link.sentence.start,
        end: link.sentence.end,
        created_at: link.created_at,
      });
    }
    if (links.length) {
      await sql`
        insert into memory_sources (account_id, memory_id, source_id, sentence_text, message_index, sentence_start, sentence_end, created_at)
        select ${scope.accountId}, ${id}, l.source_id, l.text, l.message_index, l.start, l."end", l.created_at::timestamptz
        from json_to_recordset(${JSON.stringify(links)}::json) as l(source_id text, text text, message_index integer, start integer,
          "end" integer, created_at text)
        where exists (select 1 from sources s where s.id = l.source_id and s.account_id = ${scope.accountId} and s.space = ${scope.space})
        on conflict do nothing`.execute(transaction);
    }
    // Counted with its links, as learning counts a memory it stores (store/memory-counts.ts).
    await countMemoriesOf(transaction, scope, [id], 1);
    const events = [];
    for (const [position, event] of line.history.entries()) {
      events.push({
        position,
        event: event.event,
        at: event.at,
        memory_id: event.memory_id === null ? null : await ids.memory(transaction, event.memory_id),
        source_id: event.source_id === null ? null : await ids.reference(transaction, 'source', event.source_id),
        text: event.text,
      });
    }
    if (events.length) {
      await sql`
        insert into memory_events (account_id, memory_id, event, at, other_memory_id, source_id, text)
        select ${scope.accountId}, ${id}, e.event, e.at::timestamptz, e.memory_id, e.source_id, e.text
        from json_to_recordset(${JSON.stringify(events)}::json) as e(position integer, event text, at text, memory_id integer,
          source_id text, text text)
        order by e.position`.execute(transaction);
    }
    return true;
  },
  sequence: { table: 'memories', idOf: (line) => line.id },
};

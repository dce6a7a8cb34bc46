import { sql } from 'kysely';
import type { MessageInput } from '../text/messages.js';
import { readMessages } from '../text/messages.js';
import { splitSentences } from '../text/segment.js';
import type { Db } from './database.js';
import { addKindCounts, countChanged } from './memory-counts.js';
import type { Scope } from './scope.js';

/** A sentence of a source as it was written, before learning. */
interface Passage {
  text: string;
  date: string;
  about: string[];
  messageIndex: number | null;
  start: number;
  end: number;
}

/** Most raw passages kept for one waiting source; enough to find it, bounded for huge texts. */
const MAX_PASSAGES = 2_000;

/** The sentences of a note or conversation, unlearned; a speaker's words keep the speaker's name. */
export function passagesOf(source: { body?: string | null; messages?: unknown[] | null }, writtenAt: Date): Passage[] {
  const day = (date: Date | null) => (date ?? writtenAt).toISOString().slice(0, 10);
  const passages: Passage[] = [];
  if (source.messages) {
    for (const message of readMessages(source.messages as MessageInput[])) {
      for (const sentence of splitSentences(message.text)) {
        passages.push({
          text: message.name ? `${message.name}: ${sentence.text}` : sentence.text,
          date: day(message.at),
          about: message.name ? [message.name] : [],
          messageIndex: message.index,
          start: sentence.start,
          end: sentence.end,
        });
      }
    }
  } else {
    for (const sentence of splitSentences(source.body ?? '')) {
      passages.push({ text: sentence.text, date: day(null), about: [], messageIndex: null, start: sentence.start, end: sentence.end });
    }
  }
  return passages.slice(0, MAX_PASSAGES);
}

/**
 * Writes a waiting source's raw sentences as memories (marked raw), so that what was saved
 * is found by search at once though learning waits. Learning the source replaces them.
 */
export async function storeRawPassages(
  transaction: Db,
  scope: Scope,
  source: { id: string; body?: string | null; messages?: unknown[] | null },
  writtenAt: Date,
): Promise<number> {
  const passages = passagesOf(source, writtenAt);
  let stored = 0;
  for (const [index, passage] of passages.entries()) {
    const text = passage.text.slice(0, 2_000);
    const { rows } = await sql<{ id: number }>`
      insert into memories (account_id, space, source_id, text, kind, date, about, fingerprint, sentence_text,
        message_index, sentence_start, sentence_end, raw, tsv)
      values (${scope.accountId}, ${scope.space}, ${source.id}, ${text}, 'detail', ${passage.date}::date, ${passage.about}::text[],
        ${`raw:${source.id}:${index}`}, ${passage.text}, ${passage.messageIndex}, ${passage.start}, ${passage.end}, true,
        setweight(to_tsvector('english', ${text}), 'A') || setweight(to_tsvector('simple', ${passage.about.join(' ')}), 'B'))
      on conflict do nothing returning id`.execute(transaction);
    if (!rows[0]) continue;
    stored += 1;
    // Linked like any memory, so deleting the source deletes its passages too.
    await sql`
      insert into memory_sources (account_id, memory_id, source_id, sentence_text, message_index, sentence_start, sentence_end)
      values (${scope.accountId}, ${rows[0].id}, ${source.id}, ${passage.text}, ${passage.messageIndex}, ${passage.start}, ${passage.end})`.execute(
      transaction,
    );
  }
  // Raw passages count as current memories of their space (not of their source: store/memory-counts.ts).
  await addKindCounts(transaction, scope, Array(stored).fill('raw'));
  return passages.length;
}

/** Removes a source's raw passages (it is being learned). */
export async function deleteRawPassages(transaction: Db, scope: Scope, sourceId: string): Promise<void> {
  await sql`
    with changed as (
      delete from memories m
      where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.source_id = ${sourceId} and m.raw
      returning m.id, m.kind, m.status, m.raw),
    ${countChanged(scope, -1)}
    select 1`.execute(transaction);
}

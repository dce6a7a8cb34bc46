import { sql } from 'kysely';
import { factFingerprint, learnFromMessages, learnFromText, readMessages } from '../learn/index.js';
import type { LearnedFact, MessageInput } from '../learn/index.js';
import type { Db } from '../store/database.js';
import { findMemory, storeFacts } from '../store/memory-repository.js';
import type { FactToStore } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { countTextTokens } from '../meter/tokens.js';
import { loadSourceContent } from '../store/source-repository.js';
import type { SourceRow } from '../store/source-repository.js';
import { readSourceText } from '../read/read-source.js';
import type { ReadOptions } from '../read/read-source.js';
import { completeJob } from './queue.js';
import type { Job } from './queue.js';

function toStore(fact: LearnedFact): FactToStore {
  return {
    text: fact.text,
    kind: fact.kind,
    about: fact.about,
    date: fact.date,
    fingerprint: factFingerprint(fact.text),
    sentence: fact.sentence,
    context: fact.context,
    before: fact.before,
    slot: fact.slot,
  };
}

/** The facts a source teaches, by the offline learner, and the tokens of the text it read. */
export function factsOf(source: SourceRow): { facts: LearnedFact[]; tokens: number } {
  const options = { writtenAt: source.written_at };
  if (source.messages) {
    const messages = readMessages(source.messages as MessageInput[]);
    const tokens = messages.reduce((sum, message) => sum + countTextTokens(message.text), 0);
    return { facts: learnFromMessages(messages, options), tokens };
  }
  const text = source.body ?? '';
  return { facts: learnFromText(text, options), tokens: countTextTokens(text) };
}

/** How a worker learns sources. */
export interface LearnSourceOptions {
  /** The address guard and limits for reading pages (the safe defaults when absent). */
  read?: ReadOptions;
}

/**
 * Learns one source: reads it, writes its facts, and finishes the source and its job in
 * one transaction, so that a crash either keeps all of it or none (and the job runs again).
 */
export async function learnSource(db: Db, job: Job, options: LearnSourceOptions = {}): Promise<void> {
  const scope: Scope = { accountId: job.accountId, space: job.space };
  const loaded = await loadSourceContent(db, scope, job.sourceId);
  if (!loaded) return; // deleted meanwhile; its job went with it
  // Read the source's text: a page is fetched and a PDF or Word file opened, once, into its body.
  const source = await readSourceText(db, job, loaded, options.read);
  if (!source) return; // unreadable: the source has failed and its job is gone
  const read = factsOf(source);
  let facts = read.facts.map(toStore);
  let corrected = null;
  if (source.corrects_memory_id !== null) {
    corrected = await findMemory(db, scope, source.corrects_memory_id);
    // A correction always yields what is right, even when it is too short to read as a sentence.
    if (!facts.length && source.body?.trim()) {
      const text = source.body.trim();
      facts = [
        {
          text,
          kind: corrected?.kind ?? 'detail',
          about: corrected?.about ?? [],
          date: source.written_at.toISOString().slice(0, 10),
          fingerprint: factFingerprint(text),
          sentence: { text, messageIndex: null, start: source.body.indexOf(text), end: source.body.indexOf(text) + text.length },
        },
      ];
    }
  }
  await db.transaction().execute(async (transaction) => {
    const { created } = await storeFacts(transaction, scope, source.id, facts);
    if (corrected) {
      for (const memoryId of created) {
        await sql`insert into memory_events (memory_id, event, other_memory_id) values (${memoryId}, 'replaces', ${corrected.id})`.execute(transaction);
        await sql`insert into memory_events (memory_id, event, other_memory_id) values (${corrected.id}, 'replaced', ${memoryId})`.execute(transaction);
      }
    }
    await sql`
      update sources set status = 'finished', error = null, learned_at = now(), tokens = ${read.tokens}
      where id = ${source.id}`.execute(transaction);
    await completeJob(transaction, job);
  });
}

import { sql } from 'kysely';
import { learnStructures } from '../brief/learn-structures.js';
import { storeStructures } from '../brief/store-structures.js';
import type { SourceFacts } from '../learn/facts-of.js';
import { factsOf } from '../learn/facts-of.js';
import type { LearnedFact } from '../learn/index.js';
import { factFingerprint } from '../learn/index.js';
import type { LearnFacts } from '../learn/pool.js';
import { learnWithModel } from '../model/learn-with-model.js';
import type { Model, ModelUsage } from '../model/model-client.js';
import type { Parsers, ReadOptions } from '../read/read-source.js';
import { readSourceText } from '../read/read-source.js';
import { recall } from '../recall/search.js';
import type { Db } from '../store/database.js';
import { applyFileLabels } from '../store/file-repository.js';
import type { FactToStore } from '../store/memory-repository.js';
import { findMemory, slotsForUpdates, storeFacts } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { loadSourceContent } from '../store/source-repository.js';
import type { Job } from './queue.js';
import { completeJob } from './queue.js';

/** A learned fact as the store keeps it (with its fingerprint). */
export function toStore(fact: LearnedFact): FactToStore {
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
    reported: fact.reported,
    nameTypes: fact.nameTypes,
    lasting: fact.lasting,
    owner: fact.owner,
  };
}

/** Facts stored per transaction when a source is large. */
const STORE_BATCH = 100;

/** How a worker learns sources. */
export interface LearnSourceOptions {
  /** The address guard and limits for reading pages (the safe defaults when absent). */
  read?: ReadOptions;
  /** Where the learner runs: learner threads (learn/pool.ts), or this thread by default. */
  learn?: LearnFacts;
  /** Where pages and uploaded files are parsed: learner threads, or this thread by default. */
  parsers?: Parsers;
  /** The optional model: when set it learns the facts, and the offline learner takes what it fails on. */
  model?: Model | null;
  /** Counts what the model's calls cost (tokens sent and received). */
  countModel?: (usage: ModelUsage) => Promise<void>;
}

/** The few current memories nearest a text, shown to the model so that it can say which one a fact updates. */
async function nearestMemories(db: Db, scope: Scope, text: string) {
  const found = await recall(db, scope, text, { limit: 5, kind: 'all', judge: false });
  return found.memories.map((item) => ({ id: item.row.id, text: item.row.text, date: item.row.date }));
}

/**
 * Learns one source: reads it, writes its facts, and finishes the source and its job in
 * one transaction, so that a crash either keeps all of it or none (and the job runs again).
 */
export async function learnSource(db: Db, job: Job, options: LearnSourceOptions = {}): Promise<boolean> {
  const scope: Scope = { accountId: job.accountId, space: job.space };
  const loaded = await loadSourceContent(db, scope, job.sourceId);
  if (!loaded) return false; // deleted meanwhile; its job went with it
  // Read the source's text: a page is fetched and a PDF or Word file opened, once, into its body.
  const source = await readSourceText(db, job, loaded, options.read, options.parsers);
  if (!source) return false; // unreadable: the source has failed and its job is gone
  // A file belongs to the project its `project` label names, unless the save named one.
  if (source.kind === 'file' && !source.project) {
    const { rows } = await sql<{ project: string | null }>`
      select labels->>'project' as project from files
      where account_id = ${scope.accountId} and space = ${scope.space} and source_id = ${source.id}`.execute(db);
    source.project = rows[0]?.project ?? null;
  }
  const offline = options.learn ?? factsOf;
  let read: SourceFacts;
  if (options.model) {
    const learned = await learnWithModel(options.model, source, { offline, nearest: (text) => nearestMemories(db, scope, text) });
    await options.countModel?.(learned.model);
    // Project state, intentions, lessons and the episode are read by rules from the same text and the model's facts.
    read = { ...learned, structures: learnStructures(source, learned.facts) };
  } else {
    read = await offline(source);
  }
  // A fact the model says updates a current memory takes that memory's slot, so storing it replaces the memory.
  const updated = await slotsForUpdates(
    db,
    scope,
    read.facts.flatMap((fact) => (fact.replaces === undefined ? [] : [fact.replaces])),
  );
  let facts = read.facts.map((fact) =>
    toStore(fact.replaces === undefined ? fact : { ...fact, slot: updated.get(fact.replaces) ?? fact.slot }),
  );
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
  // A large source is stored in batches, each its own transaction, so that the embedded store's
  // single connection is not held for seconds. Storing is idempotent (a fact already stored is
  // linked, not stored again), so a crash between batches only means the job runs again.
  while (facts.length > STORE_BATCH) {
    const batch = facts.slice(0, STORE_BATCH);
    facts = facts.slice(STORE_BATCH);
    const stored = await db.transaction().execute(async (transaction) => {
      if (!(await jobStands(transaction, job))) return false;
      await storeFacts(transaction, scope, source.id, batch);
      return true;
    });
    if (!stored) return false;
  }
  return db.transaction().execute(async (transaction) => {
    if (!(await jobStands(transaction, job))) return false;
    const { created } = await storeFacts(transaction, scope, source.id, facts);
    // The project state, intentions, lessons and episode were learned in the same pass as the facts.
    if (read.structures) await storeStructures(transaction, scope, source.id, read.structures);
    // A file's memories carry its labels, which recall can filter on.
    if (source.kind === 'file') await applyFileLabels(transaction, source.id);
    if (corrected) {
      for (const memoryId of created) {
        await sql`insert into memory_events (memory_id, event, other_memory_id) values (${memoryId}, 'replaces', ${corrected.id})`.execute(
          transaction,
        );
        await sql`insert into memory_events (memory_id, event, other_memory_id) values (${corrected.id}, 'replaced', ${memoryId})`.execute(
          transaction,
        );
      }
    }
    await sql`
      update sources set status = 'finished', error = null, learned_at = now(), tokens = ${read.tokens}
      where id = ${source.id}`.execute(transaction);
    await completeJob(transaction, job);
    return true;
  });
}

/**
 * Whether the job still stands, holding its source until the transaction ends. A file
 * rewritten or a source deleted while its text was being learned has lost this job (the
 * rewrite queued a new one): what the old text taught is then not stored, and the rewrite,
 * which locks the same source row, either waits for this batch and sees its memories, or
 * goes first and this batch stores nothing. A job whose lease ran out and was taken over by
 * another worker no longer stands for this one either.
 */
async function jobStands(transaction: Db, job: Job): Promise<boolean> {
  const { rows } = await sql`
    select 1 from jobs j join sources s on s.id = j.source_id
    where j.id = ${job.id} and j.locked_by = ${job.lockedBy} for share of s`.execute(transaction);
  return rows.length > 0;
}

import { learnStructures } from '../brief/learn-structures.js';
import { storeStructures } from '../brief/store-structures.js';
import type { SourceFacts } from '../learn/facts-of.js';
import { factsOf } from '../learn/facts-of.js';
import { factFingerprint } from '../learn/index.js';
import type { LearnFacts } from '../learn/pool.js';
import type { MeterContext } from '../meter/metering.js';
import { currentUsage } from '../meter/metering.js';
import { billedTokens, canLearn, periodOf } from '../meter/usage.js';
import { learnWithModel } from '../model/learn-with-model.js';
import type { Model, ModelUsage } from '../model/model-client.js';
import type { Parsers, ReadOptions } from '../read/read-source.js';
import { needsReading, readOptionsFrom, readSourceText } from '../read/read-source.js';
import { UnreadableError } from '../read/unreadable.js';
import { recall } from '../recall/search.js';
import type { Db } from '../store/database.js';
import { applyFileLabels, fileProject } from '../store/file-repository.js';
import { findMemory, recordCorrection, slotsForUpdates, storeFacts } from '../store/memory-repository.js';
import { deleteRawPassages, storeRawPassages } from '../store/passage-repository.js';
import type { Job } from '../store/queue-repository.js';
import { completeJob, failJobNow, jobStands } from '../store/queue-repository.js';
import type { Scope } from '../store/scope.js';
import type { SourceRow } from '../store/source-repository.js';
import {
  dropSourceFile,
  finishSource,
  keepReadText,
  loadSourceContent,
  markSourceWaiting,
  sourceFile,
} from '../store/source-repository.js';
import { addLearnedTokens, addModelTokens } from '../store/usage-repository.js';
import { markContrastUpdates } from './contrast-updates.js';
import { indexDocumentOf, toStore } from './index-document.js';

export { toStore } from './index-document.js';

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
  /**
   * Counts the source's tokens as learned, in the transaction that marks it finished: a caller
   * who sees the source finished sees its tokens in the usage too.
   */
  bill?: (transaction: Db, tokens: number) => Promise<void>;
}

/** The few current memories nearest a text, shown to the model so that it can say which one a fact updates. */
async function nearestMemories(db: Db, scope: Scope, text: string) {
  const found = await recall(db, scope, text, { limit: 5, kind: 'all', judge: false });
  return found.memories.map((item) => ({ id: item.row.id, text: item.row.text, date: item.row.date }));
}

/**
 * Reads a page or an uploaded file into the source's body, once (its bytes are dropped), and
 * keeps a title it gives itself when the caller gave none; other sources pass through. Null
 * when it cannot be read: the source has then failed with `error: {type: "unreadable"}` and
 * its job is gone. A failure that a later try may fix (a reset connection, a 5xx) is thrown,
 * so the job backs off and runs again, and fails as unreadable on its last attempt.
 */
async function readText(db: Db, job: Job, source: SourceRow, options: LearnSourceOptions): Promise<SourceRow | null> {
  if (!needsReading(source)) return source;
  try {
    const read = await readSourceText(source, () => sourceFile(db, source.account_id, source.id), options.read, options.parsers);
    await keepReadText(db, source.account_id, source.id, read);
    return { ...source, ...read };
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error;
    if (!error.permanent && job.attempts < job.maxAttempts) throw error;
    await failJobNow(db, job, { type: 'unreadable', message: error.message.slice(0, 1_000) });
    await dropSourceFile(db, source.account_id, source.id);
    return null;
  }
}

/**
 * Learns one source: reads it, writes its facts, and finishes the source and its job in
 * one transaction, so that a crash either keeps all of it or none (and the job runs again).
 */
export async function learnSource(db: Db, job: Job, options: LearnSourceOptions = {}): Promise<boolean> {
  const scope: Scope = { accountId: job.accountId, space: job.space };
  const loaded = await loadSourceContent(db, scope, job.sourceId);
  if (!loaded) {
    // Deleted meanwhile. Its job went with it, unless the queue keeps no foreign key to the sources (docs/citus.sql).
    await completeJob(db, job);
    return false;
  }
  // Read the source's text: a page is fetched and a PDF or Word file opened, once, into its body.
  const source = await readText(db, job, loaded, options);
  if (!source) return false; // unreadable: the source has failed and its job is gone
  // A file belongs to the project its `project` label names, unless the save named one.
  if (source.kind === 'file' && !source.project) source.project = await fileProject(db, scope, source.id);
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
  // A fact that says what no longer holds ("… now, not vegan") updates the memory that said it.
  read = { ...read, facts: await markContrastUpdates(db, scope, source.id, read.facts) };
  // A fact said to update a current memory takes that memory's slot, so storing it replaces the memory.
  const updated = await slotsForUpdates(
    db,
    scope,
    read.facts.flatMap((fact) => (fact.replaces === undefined ? [] : [fact.replaces])),
  );
  // Each fact's index document is worked out here, before any transaction opens.
  let facts = read.facts.map((fact) =>
    toStore(fact.replaces === undefined ? fact : { ...fact, slot: updated.get(fact.replaces) ?? fact.slot }),
  );
  let corrected = null;
  if (source.corrects_memory_id !== null) {
    corrected = await findMemory(db, scope, source.corrects_memory_id);
    // A correction always yields what is right, even when it is too short to read as a sentence.
    if (!facts.length && source.body?.trim()) {
      const text = source.body.trim();
      const about = corrected?.about ?? [];
      facts = [
        {
          text,
          kind: corrected?.kind ?? 'detail',
          about,
          date: source.written_at.toISOString().slice(0, 10),
          fingerprint: factFingerprint(text),
          sentence: { text, messageIndex: null, start: source.body.indexOf(text), end: source.body.indexOf(text) + text.length },
          index: indexDocumentOf(text, about),
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
    if (source.kind === 'file') await applyFileLabels(transaction, scope.accountId, source.id);
    if (corrected) await recordCorrection(transaction, scope, corrected.id, created);
    await finishSource(transaction, scope.accountId, source.id, read.tokens);
    await options.bill?.(transaction, read.tokens);
    await completeJob(transaction, job);
    return true;
  });
}

/**
 * The learning job's handler (what every worker runs, in `engram serve` and `engram worker`):
 * learns a claimed job's source when the plan allows, and counts its tokens (at least 100 a
 * save). When it does not, the source waits: its text stays searchable as raw passages and it
 * is queued again when a new period (or extra learning) allows.
 */
export async function learnMetered(context: MeterContext, job: Job): Promise<void> {
  const { db } = context;
  const scope: Scope = { accountId: job.accountId, space: job.space };
  const usage = await currentUsage(context, job.accountId);
  if (!canLearn(usage.state)) {
    await db.transaction().execute(async (transaction) => {
      const source = await loadSourceContent(transaction, scope, job.sourceId);
      await completeJob(transaction, job);
      if (!source) return;
      await markSourceWaiting(transaction, scope.accountId, source.id);
      await deleteRawPassages(transaction, scope, source.id);
      await storeRawPassages(transaction, scope, source, source.written_at);
    });
    return;
  }
  await db.transaction().execute((transaction) => deleteRawPassages(transaction, scope, job.sourceId));
  // A job that lost its source to a rewrite or a delete is not billed: the rewrite's job is.
  const options = {
    read: readOptionsFrom(context.config),
    learn: context.learn,
    parsers: context.parsers,
    model: context.model,
    countModel: (usage: ModelUsage) => addModelTokens(db, scope, periodOf(context.now()).start, usage),
    bill: (transaction: Db, tokens: number) => addLearnedTokens(transaction, scope, periodOf(context.now()).start, billedTokens(tokens)),
  };
  await learnSource(db, job, options);
}

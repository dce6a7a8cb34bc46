import type { KindFilter, Labels } from '@engram/protocol';
import { periodOf } from '../meter/usage.js';
import { answerWithModel } from '../model/answer-with-model.js';
import { ModelError } from '../model/model-error.js';
import { answerOffline } from '../recall/ask.js';
import { chooseContext, WITH_THEIR_REFERENCE, WITH_THEIR_WHOLE_MESSAGE } from '../recall/context-block.js';
import type { Recalled, RecallResult } from '../recall/search.js';
import { recall } from '../recall/search.js';
import { memoriesOfMessages } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { addAnswer, addModelTokens } from '../store/usage-repository.js';
import type { OperationContext } from './context.js';

/** What a question is asked with: which memories may answer it. */
export interface RecallFilter {
  limit: number;
  kind: KindFilter;
  labels?: Labels;
}

/** Ranks every memory matching a query (counts cover them all); it judges nothing known or not. */
export function search(context: OperationContext, scope: Scope, query: string, filter: RecallFilter): Promise<RecallResult> {
  return recall(context.db, scope, query, { ...filter, judge: false, now: context.now() });
}

/** How many recalled memories the context block chooses its `limit` from (the most search returns). */
const CONTEXT_POOL = 50;

/**
 * The memories that bear on a question (none when nothing known does), at most `limit`, chosen
 * by `chooseContext` (the best ones with their message's other memories, for the best one also
 * those recall did not find, loaded here); counted as one answer of the plan.
 */
export async function contextFor(context: OperationContext, scope: Scope, question: string, filter: RecallFilter): Promise<RecallResult> {
  const found = await recall(context.db, scope, question, { ...filter, limit: Math.max(filter.limit, CONTEXT_POOL), now: context.now() });
  await addAnswer(context.db, scope, periodOf(context.now()).start);
  // The best one's whole message, and the messages whose sentences the next best may bring.
  const seen = new Set<string>();
  const messages = found.memories.slice(0, Math.max(WITH_THEIR_WHOLE_MESSAGE, WITH_THEIR_REFERENCE)).flatMap(({ row }) => {
    const key = `${row.source_id}:${row.message_index}`;
    if (row.message_index === null || seen.has(key)) return [];
    seen.add(key);
    return [{ sourceId: row.source_id, messageIndex: row.message_index }];
  });
  const said = await memoriesOfMessages(context.db, scope, messages, { kind: filter.kind, labels: filter.labels });
  return { ...found, memories: chooseContext(found.memories, filter.limit, said) };
}

/** A short written answer and the memories it came from. */
export interface Answer {
  answer: string | null;
  message: string;
  clash: boolean;
  memories: Recalled[];
}

/**
 * Answers a question from the memory alone: the model writes the answer from the best memories
 * when there is one (its tokens are counted), the offline answer otherwise or when the model
 * fails (`onModelFailure` hears why). Counted as one answer of the plan.
 */
export async function ask(
  context: OperationContext,
  scope: Scope,
  question: string,
  labels: Labels | undefined,
  onModelFailure: (reason: string) => void = () => {},
): Promise<Answer> {
  const now = context.now();
  const found = await recall(context.db, scope, question, { limit: 12, kind: 'all', labels, now });
  await addAnswer(context.db, scope, periodOf(now).start);
  // With a model, it writes the answer from these memories alone; ask judges "known or not" as context does.
  if (context.model && !found.empty && found.memories.length) {
    try {
      const written = await answerWithModel(context.model, question, found.memories, now);
      await addModelTokens(context.db, scope, periodOf(now).start, written.usage);
      const { answer, message, clash } = written;
      return { answer, message, clash, memories: written.used };
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      await addModelTokens(context.db, scope, periodOf(now).start, error.usage);
      onModelFailure(error.reason);
    }
  }
  return { ...answerOffline(found.memories, found.empty, question), memories: found.memories };
}

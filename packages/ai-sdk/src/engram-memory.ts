import type { ContextParams, Engram } from '@engram/client';
import { BoundedMap } from './internal/bounded-map.js';
import type { CallOptionsLike, PromptPart } from './internal/prompt.js';
import { assistantTextAfter, lastUserIndex, repliedTo, textOf, turnKey, withSystemMessage } from './internal/prompt.js';

const DEFAULT_TIMEOUT_MS = 2_000;
const MAX_QUESTION_CHARS = 2_000;
const REMEMBERED_TURNS = 1_000;
const DEFAULT_HEADING =
  'What you remember about this user from earlier conversations. Use what bears on their request; do not mention it otherwise:';

/** Where the middleware reports a failed context call or save. */
export interface MemoryLogger {
  /** Called once per failure. */
  warn(message: string, ...details: unknown[]): void;
}

/** Options of `engramMemory()`. */
export interface EngramMemoryOptions {
  /**
   * The Engram client. With an account key, name the user per call (`providerOptions.engram.space`)
   * or here (`space`); a client made with `forSpace()` or a limited key already names one.
   */
  client: Engram;
  /** The space (one end user's memory) of every call; `providerOptions.engram.space` overrides it per call. */
  space?: string;
  /** Most memories in the context block, 1 to 50. Default: the server's (12). */
  limit?: number;
  /** Only memories of this kind in the context block. Default `all`. */
  kind?: ContextParams['kind'];
  /** Save each finished turn (the user's words and the reply) as a conversation to learn from. Default true. */
  saveConversation?: boolean;
  /** Milliseconds the context call may take before the model answers without it. Default 2000. */
  timeout?: number;
  /** When Engram is down or slow, answer without memory (true, the default) instead of failing the call. */
  failOpen?: boolean;
  /**
   * Hands each background save to the platform so it outlives the response on serverless hosts,
   * e.g. `waitUntil` from `@vercel/functions` or a Worker's `ctx.waitUntil`.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** The line above the context block in the system message. */
  heading?: string;
  /** Put the block in the prompt even when nothing stored bears on the user's words. Default false. */
  includeEmpty?: boolean;
  /** Where failures are reported. Default `console.warn`; `null` silences. */
  logger?: MemoryLogger | null;
}

/** Per-call settings, passed as `providerOptions: { engram: { … } }` to `generateText` or `streamText`. */
export interface EngramCallOptions {
  /** The space (end user) of this call, for servers that answer many users with one model. */
  space?: string;
  /** Set false to leave this call's turn unsaved. */
  saveConversation?: boolean;
}

/** Why the model stopped: a string in specification v2, `{ unified }` from v3 on. */
type FinishReasonLike = string | { unified: string };

/** What the middleware reads of a generate result. */
export interface GenerateResultLike {
  content: ReadonlyArray<PromptPart>;
  finishReason: FinishReasonLike;
}

/** What the middleware reads of a stream part. */
export interface StreamPartLike {
  type: string;
  delta?: string;
  finishReason?: FinishReasonLike;
}

/** What the middleware reads of a stream result. */
export interface StreamResultLike {
  stream: ReadableStream<StreamPartLike>;
}

/**
 * A language-model middleware for `wrapLanguageModel` (AI SDK 6 and 7), with `flush()` to await
 * the saves still running.
 */
export interface EngramMemoryMiddleware {
  /** The middleware specification: `v3` is what ai 6 requires and ai 7 still accepts. */
  readonly specificationVersion: 'v3';
  /** Puts the context block into the prompt on a new user turn. */
  transformParams<P extends CallOptionsLike>(options: { type: 'generate' | 'stream'; params: P }): PromiseLike<P>;
  /** Saves the turn once the final answer is generated. */
  wrapGenerate<R extends GenerateResultLike>(options: { doGenerate: () => PromiseLike<R>; params: CallOptionsLike }): PromiseLike<R>;
  /** Saves the turn once the final answer has streamed to its end. */
  wrapStream<R extends StreamResultLike>(options: { doStream: () => PromiseLike<R>; params: CallOptionsLike }): PromiseLike<R>;
  /** Resolves once every save started so far has ended (each one's failure is logged, not thrown). */
  flush(): Promise<void>;
}

const reasonOf = (reason: FinishReasonLike | undefined): string | undefined => (typeof reason === 'string' ? reason : reason?.unified);

/** A turn is over when the model stopped for any reason but to call tools (or to fail). */
const endsTurn = (reason: FinishReasonLike | undefined): boolean => {
  const unified = reasonOf(reason);
  return unified !== undefined && unified !== 'tool-calls' && unified !== 'error';
};

function callOptionsOf(params: CallOptionsLike): EngramCallOptions {
  const engram = params.providerOptions?.engram;
  if (!engram) return {};
  const space = typeof engram.space === 'string' ? engram.space : undefined;
  const saveConversation = typeof engram.saveConversation === 'boolean' ? engram.saveConversation : undefined;
  return { space, saveConversation };
}

/**
 * Per-user long-term memory for a model: on each new user turn the model gets what Engram knows
 * that bears on the user's words (as a system message), and each finished turn is saved to learn
 * from, in the background, after the end of the assistant's message it replies to (so that "Environment
 * mostly." is saved with the question it answers). Tool-loop steps ask nothing: they carry the turn's block along.
 * When Engram is down the model still answers, within `timeout`.
 * @example
 * const memory = engramMemory({ client: new Engram() });
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: memory });
 * const { text } = await generateText({ model, prompt, providerOptions: { engram: { space: user.id } } });
 */
export function engramMemory(options: EngramMemoryOptions): EngramMemoryMiddleware {
  const {
    client,
    limit,
    kind,
    saveConversation = true,
    timeout = DEFAULT_TIMEOUT_MS,
    failOpen = true,
    waitUntil,
    heading = DEFAULT_HEADING,
    includeEmpty = false,
  } = options;
  const logger: MemoryLogger | null =
    options.logger === undefined ? { warn: (message, ...details) => console.warn(message, ...details) } : options.logger;
  // The block each recent turn got, so the steps of a tool loop see it without asking again.
  const blocks = new BoundedMap<string, string | null>(REMEMBERED_TURNS);
  // Turns already saved, so a turn is saved once however many times its last step runs.
  const saved = new BoundedMap<string, true>(REMEMBERED_TURNS);
  const pending = new Set<Promise<unknown>>();

  const spaceOf = (params: CallOptionsLike) => callOptionsOf(params).space ?? options.space;

  async function contextFor(question: string, space: string | undefined): Promise<string | null> {
    try {
      const answer = await client.context(
        { question, ...(limit !== undefined && { limit }), ...(kind !== undefined && { kind }), ...(space !== undefined && { space }) },
        { timeout, maxRetries: 0 },
      );
      return answer.empty && !includeEmpty ? null : `${heading}\n${answer.context}`;
    } catch (error) {
      if (!failOpen) throw error;
      logger?.warn('[engram] answering without memory: the context call failed', error);
      return null;
    }
  }

  function save(params: CallOptionsLike, reply: string): void {
    const call = callOptionsOf(params);
    if (!(call.saveConversation ?? saveConversation)) return;
    const space = call.space ?? options.space;
    const userIndex = lastUserIndex(params.prompt);
    if (userIndex < 0) return;
    const userText = textOf(params.prompt[userIndex]!);
    if (userText === '') return;
    const key = turnKey(space, params.prompt, userIndex);
    if (saved.has(key)) return;
    saved.set(key, true);
    const answer = [...assistantTextAfter(params.prompt, userIndex), reply].filter((text) => text !== '').join('\n\n');
    const before = repliedTo(params.prompt, userIndex);
    const messages = [
      ...(before !== '' ? [{ role: 'assistant' as const, content: before }] : []),
      { role: 'user' as const, content: userText, at: new Date().toISOString() },
      ...(answer !== '' ? [{ role: 'assistant' as const, content: answer }] : []),
    ];
    const saving = client.memories
      .add({ messages, ...(space !== undefined && { space }) })
      .catch((error: unknown) => logger?.warn('[engram] the conversation turn was not saved', error))
      .finally(() => pending.delete(saving));
    pending.add(saving);
    waitUntil?.(saving);
  }

  return {
    specificationVersion: 'v3',

    async transformParams({ params }) {
      const userIndex = lastUserIndex(params.prompt);
      if (userIndex < 0) return params;
      const space = spaceOf(params);
      const key = turnKey(space, params.prompt, userIndex);
      const last = params.prompt[params.prompt.length - 1]!;
      let block: string | null | undefined;
      if (last.role === 'user') {
        const words = textOf(last);
        if (words === '') return params;
        block = await contextFor(words.slice(-MAX_QUESTION_CHARS), space);
        blocks.set(key, block);
      } else {
        // A continuation (tool results, or an assistant prefix): no new question was asked.
        block = blocks.get(key);
      }
      return block ? withSystemMessage(params, block) : params;
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (endsTurn(result.finishReason)) {
        const reply = result.content
          .filter((part) => part.type === 'text' && typeof part.text === 'string')
          .map((part) => part.text)
          .join('');
        save(params, reply.trim());
      }
      return result;
    },

    async wrapStream({ doStream, params }) {
      const result = await doStream();
      let reply = '';
      let finishReason: FinishReasonLike | undefined;
      const watch = new TransformStream<StreamPartLike, StreamPartLike>({
        transform(part, controller) {
          if (part.type === 'text-delta' && typeof part.delta === 'string') reply += part.delta;
          else if (part.type === 'finish') finishReason = part.finishReason;
          controller.enqueue(part);
        },
        flush() {
          if (endsTurn(finishReason)) save(params, reply.trim());
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },

    async flush() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

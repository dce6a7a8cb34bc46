import type { ContextParams, Engram } from '@engram/client';
import { BoundedMap } from './internal/bounded-map.js';
import type { ChatBodyLike, ChatChunkLike, ChatCompletionLike } from './internal/chat-completions.js';
import {
  assistantTextAfter,
  chatTurnKey,
  chunkCollector,
  isNewTurn,
  lastUserIndex,
  repliedTo,
  replyOfCompletion,
  withSystemMessage,
} from './internal/chat-completions.js';
import type { ResponseEventLike, ResponseLike, ResponsesBodyLike } from './internal/responses.js';
import {
  eventCollector,
  lastUserText,
  newTurnText,
  repliedToInInput,
  replyOfResponse,
  responsesTurnKey,
  withInstructions,
} from './internal/responses.js';
import { MAX_QUESTION_CHARS, repliedToTail, textOfContent } from './internal/text.js';
import { watchStream } from './internal/watch-stream.js';

const DEFAULT_TIMEOUT_MS = 2_000;
const REMEMBERED_TURNS = 1_000;
const DEFAULT_HEADING =
  'What you remember about this user from earlier conversations. Use what bears on their request; do not mention it otherwise:';

/** Where `withEngram` reports a failed context call or save. */
export interface MemoryLogger {
  /** Called once per failure. */
  warn(message: string, ...details: unknown[]): void;
}

/** Options of `withEngram()`. */
export interface WithEngramOptions {
  /**
   * The Engram client. With an account key, name the user here (`space`) or per call
   * (`engram: { space }` in the request body); a client made with `forSpace()` or a limited key already names one.
   */
  client: Engram;
  /** The space (one end user's memory) of every call; `engram: { space }` in a request body overrides it. */
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
  /** The line above the context block. */
  heading?: string;
  /** Add the block even when nothing stored bears on the user's words. Default false. */
  includeEmpty?: boolean;
  /** Where failures are reported. Default `console.warn`; `null` silences. */
  logger?: MemoryLogger | null;
}

/**
 * Per-call settings, as `engram: { … }` in the body of `chat.completions.create` or
 * `responses.create`. The key is taken out before the request goes to the model.
 */
export interface EngramCallOptions {
  /** The space (end user) of this call, for servers that answer many users with one client. */
  space?: string;
  /** Set false to leave this call's turn unsaved. */
  saveConversation?: boolean;
}

/** What `withEngram` adds to the client. */
export interface EngramControls {
  /** Resolves once every save started so far has ended (each one's failure is logged, not thrown). */
  flush(): Promise<void>;
}

/** The part of an `APIPromise` the wrapper keeps: awaiting it, `withResponse()` and `asResponse()`. */
interface APIPromiseLike<T> extends PromiseLike<T> {
  withResponse?(): Promise<{ data: T } & Record<string, unknown>>;
  asResponse?(): Promise<unknown>;
}

type Create = (body: never, options?: unknown) => APIPromiseLike<unknown>;

/** One call's turn: what it is keyed by, the user's words, and what to do with the reply. */
interface Turn {
  key: string;
  space: string | undefined;
  userText: string;
  /** The assistant's words from earlier steps of the turn (a tool loop). */
  earlier: string[];
  /** The end of the assistant's message the user's words reply to, saved before them, or ''. */
  repliedTo: string;
  save: boolean;
}

function callOptionsOf(body: { engram?: unknown }): EngramCallOptions {
  const engram = body.engram;
  if (engram === null || typeof engram !== 'object') return {};
  const { space, saveConversation } = engram as Record<string, unknown>;
  return {
    ...(typeof space === 'string' && { space }),
    ...(typeof saveConversation === 'boolean' && { saveConversation }),
  };
}

function withoutCallOptions<B extends object>(body: B): B {
  if (!('engram' in body)) return body;
  const { engram: _engram, ...rest } = body as B & { engram?: unknown };
  return rest as B;
}

/**
 * Gives an `openai` client (openai 5, 6 and 7) per-user long-term memory, and returns it:
 * `chat.completions.create` and `responses.create` (plain and `stream: true`) get what Engram
 * knows that bears on the user's latest words, as a system message (Chat Completions) or after
 * the instructions (Responses), and each finished turn is saved once, in the background, for
 * Engram to learn from. When Engram is down the model still answers, within `timeout`.
 * Everything else on the client is untouched.
 * @example
 * const openai = withEngram(new OpenAI(), { client: new Engram(), space: user.id });
 * const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
 * await openai.flush(); // before a serverless function returns
 */
export function withEngram<T extends object>(openai: T, options: WithEngramOptions): T & EngramControls {
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
  // Responses that stopped to call tools, so a continuation by `previous_response_id` finds its turn.
  const openTurns = new BoundedMap<string, { turn: Turn; block: string | null }>(REMEMBERED_TURNS);
  // The end of each response's reply, by its id: what a turn sent with `previous_response_id` replies to.
  const replies = new BoundedMap<string, string>(REMEMBERED_TURNS);
  // Replies already looked at: `await` and `withResponse()` give the same object.
  const observed = new WeakSet<object>();
  const pending = new Set<Promise<unknown>>();

  async function contextFor(words: string, space: string | undefined): Promise<string | null> {
    try {
      const answer = await client.context(
        {
          question: words.slice(-MAX_QUESTION_CHARS),
          ...(limit !== undefined && { limit }),
          ...(kind !== undefined && { kind }),
          ...(space !== undefined && { space }),
        },
        { timeout, maxRetries: 0 },
      );
      return answer.empty && !includeEmpty ? null : `${heading}\n${answer.context}`;
    } catch (error) {
      if (!failOpen) throw error;
      logger?.warn('[engram] answering without memory: the context call failed', error);
      return null;
    }
  }

  function save(turn: Turn, reply: string): void {
    if (!turn.save || turn.userText === '' || saved.has(turn.key)) return;
    saved.set(turn.key, true);
    const answer = [...turn.earlier, reply].filter((text) => text !== '').join('\n\n');
    const messages = [
      ...(turn.repliedTo !== '' ? [{ role: 'assistant' as const, content: turn.repliedTo }] : []),
      { role: 'user' as const, content: turn.userText, at: new Date().toISOString() },
      ...(answer !== '' ? [{ role: 'assistant' as const, content: answer }] : []),
    ];
    const saving = client.memories
      .add({ messages, ...(turn.space !== undefined && { space: turn.space }) })
      .catch((error: unknown) => logger?.warn('[engram] the conversation turn was not saved', error))
      .finally(() => pending.delete(saving));
    pending.add(saving);
    waitUntil?.(saving);
  }

  /**
   * Runs `prepare` (which may ask Engram), then the SDK's own `create` with the body it gives, and
   * returns a promise of the reply that keeps `withResponse()` and `asResponse()`.
   */
  function call<R>(
    prepare: () => Promise<{ body: unknown; observe: (reply: R) => void }>,
    create: Create,
    requestOptions: unknown,
  ): Promise<R> {
    const started = prepare().then(({ body, observe }) => ({
      promise: create(body as never, requestOptions) as APIPromiseLike<R>,
      observe,
    }));
    const look = (reply: R, observe: (reply: R) => void): R => {
      if (reply !== null && typeof reply === 'object' && !observed.has(reply)) {
        observed.add(reply);
        observe(reply);
      }
      return reply;
    };
    // Box the SDK's promise so awaiting `started` does not unwrap it.
    const reply = started.then(({ promise, observe }) => Promise.resolve(promise).then((value) => look(value, observe)));
    // The app may use only `withResponse()`; a failure still reaches it there, not as an unhandled rejection.
    reply.catch(() => undefined);
    return Object.assign(reply, {
      async withResponse() {
        const { promise, observe } = await started;
        if (!promise.withResponse) return { data: look(await promise, observe) };
        const result = await promise.withResponse();
        return { ...result, data: look(result.data, observe) };
      },
      async asResponse() {
        const { promise } = await started;
        return promise.asResponse ? promise.asResponse() : promise;
      },
    });
  }

  function chatCreate(create: Create) {
    return (body: ChatBodyLike & { engram?: EngramCallOptions }, requestOptions?: unknown) =>
      call<ChatCompletionLike | AsyncIterable<ChatChunkLike>>(
        async () => {
          const callOptions = callOptionsOf(body);
          const space = callOptions.space ?? options.space;
          let sent: ChatBodyLike = withoutCallOptions(body);
          const messages = Array.isArray(sent.messages) ? sent.messages : [];
          const userIndex = lastUserIndex(messages);
          if (userIndex < 0) return { body: sent, observe: () => undefined };
          const turn: Turn = {
            key: chatTurnKey(space, messages, userIndex),
            space,
            userText: textOfContent(messages[userIndex]!.content),
            earlier: assistantTextAfter(messages, userIndex),
            repliedTo: repliedTo(messages, userIndex),
            save: callOptions.saveConversation ?? saveConversation,
          };
          let block: string | null | undefined;
          if (isNewTurn(messages)) {
            block = turn.userText === '' ? null : await contextFor(turn.userText, space);
            blocks.set(turn.key, block);
          } else {
            // A continuation (tool results): no new question was asked.
            block = blocks.get(turn.key);
          }
          if (block) sent = { ...sent, messages: withSystemMessage(messages, block) };
          return {
            body: sent,
            observe: (reply) => {
              if (sent.stream) {
                const collector = chunkCollector();
                watchStream<ChatChunkLike>(reply, collector.add, () => {
                  const { text, endsTurn } = collector.result();
                  if (endsTurn) save(turn, text);
                });
              } else {
                const { text, endsTurn } = replyOfCompletion(reply as ChatCompletionLike);
                if (endsTurn) save(turn, text);
              }
            },
          };
        },
        create,
        requestOptions,
      );
  }

  function responsesCreate(create: Create) {
    return (body: ResponsesBodyLike & { engram?: EngramCallOptions }, requestOptions?: unknown) =>
      call<ResponseLike | AsyncIterable<ResponseEventLike>>(
        async () => {
          const callOptions = callOptionsOf(body);
          const space = callOptions.space ?? options.space;
          let sent: ResponsesBodyLike = withoutCallOptions(body);
          const newWords = newTurnText(sent);
          const saveThisTurn = callOptions.saveConversation ?? saveConversation;
          let turn: Turn;
          let block: string | null | undefined;
          const open = sent.previous_response_id ? openTurns.get(sent.previous_response_id) : undefined;
          if (newWords !== '') {
            const before = repliedToInInput(sent) || (sent.previous_response_id ? (replies.get(sent.previous_response_id) ?? '') : '');
            turn = { key: responsesTurnKey(space, sent), space, userText: newWords, earlier: [], repliedTo: before, save: saveThisTurn };
            block = await contextFor(newWords, space);
            blocks.set(turn.key, block);
          } else if (open !== undefined) {
            // Tool results for a response that stopped to call tools: the same turn goes on.
            ({ turn, block } = open);
          } else {
            const userText = lastUserText(sent);
            if (userText === '') return { body: sent, observe: () => undefined };
            turn = {
              key: responsesTurnKey(space, sent),
              space,
              userText,
              earlier: [],
              repliedTo: repliedToInInput(sent),
              save: saveThisTurn,
            };
            block = blocks.get(turn.key);
          }
          if (block) sent = withInstructions(sent, block);
          const settle = (reply: { text: string; endsTurn: boolean; id?: string }) => {
            // A later turn sent with this response's id replies to its words.
            if (reply.id !== undefined && reply.text !== '') replies.set(reply.id, repliedToTail(reply.text));
            if (reply.endsTurn) save(turn, reply.text);
            else if (reply.id !== undefined) {
              if (reply.text !== '') turn = { ...turn, earlier: [...turn.earlier, reply.text] };
              openTurns.set(reply.id, { turn, block: block ?? null });
            }
          };
          return {
            body: sent,
            observe: (reply) => {
              if (sent.stream) {
                const collector = eventCollector();
                watchStream<ResponseEventLike>(reply, collector.add, () => settle(collector.result()));
              } else {
                const response = reply as ResponseLike;
                settle({ ...replyOfResponse(response), ...(response.id !== undefined && { id: response.id }) });
              }
            },
          };
        },
        create,
        requestOptions,
      );
  }

  const wrapped = new WeakMap<object, object>();
  /** A view of `target` whose `overrides` replace its own members; its methods keep `target` as `this`. */
  function view<V extends object>(target: V, overrides: Record<PropertyKey, () => unknown>): V {
    const existing = wrapped.get(target);
    if (existing) return existing as V;
    const proxy = new Proxy(target, {
      get(object, property) {
        const override = overrides[property as string];
        if (override) return override();
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
    wrapped.set(target, proxy);
    return proxy;
  }

  const original = openai as unknown as {
    chat?: { completions?: { create?: Create } };
    responses?: { create?: Create };
  };
  const chatCompletionsCreate = original.chat?.completions?.create
    ? chatCreate(original.chat.completions.create.bind(original.chat.completions) as Create)
    : undefined;
  const responsesCreateWrapped = original.responses?.create
    ? responsesCreate(original.responses.create.bind(original.responses) as Create)
    : undefined;
  const flush = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  return view(openai as T & EngramControls, {
    flush: () => flush,
    ...(original.chat?.completions &&
      chatCompletionsCreate && {
        chat: () =>
          view(original.chat!, {
            completions: () => view(original.chat!.completions!, { create: () => chatCompletionsCreate }),
          }),
      }),
    ...(original.responses &&
      responsesCreateWrapped && {
        responses: () => view(original.responses!, { create: () => responsesCreateWrapped }),
      }),
  });
}

// The `engram` key of a request body, typed on the SDK's own parameters (openai 5 to 7 keep them here).
// The type imports bring the modules into the program, which their augmentation needs.
export type { ChatCompletionCreateParamsBase as _EngramAugmentedChatParams } from 'openai/resources/chat/completions/completions';
export type { ResponseCreateParamsBase as _EngramAugmentedResponseParams } from 'openai/resources/responses/responses';

declare module 'openai/resources/chat/completions/completions' {
  interface ChatCompletionCreateParamsBase {
    /** Engram's settings for this call; taken out before the request goes to the model. */
    engram?: EngramCallOptions;
  }
}

declare module 'openai/resources/responses/responses' {
  interface ResponseCreateParamsBase {
    /** Engram's settings for this call; taken out before the request goes to the model. */
    engram?: EngramCallOptions;
  }
}

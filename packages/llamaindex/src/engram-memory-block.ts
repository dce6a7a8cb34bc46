import type { ContextParams, Engram } from '@engram/client';
import type { MessageType } from '@llamaindex/core/llms';
import type { MemoryMessage } from '@llamaindex/core/memory';
import { BaseMemoryBlock } from '@llamaindex/core/memory';
import { BoundedMap } from './internal/bounded-map.js';
import { latestUserText, MAX_QUESTION_CHARS, messageKey, repliedTo, savedMessages } from './internal/messages.js';

const DEFAULT_TIMEOUT_MS = 2_000;
const REMEMBERED_MESSAGES = 5_000;
const DEFAULT_HEADING =
  'What you remember about this user from earlier conversations. Use what bears on their request; do not mention it otherwise:';

/** Where the block reports a failed context call or save. */
export interface MemoryLogger {
  /** Called once per failure. */
  warn(message: string, ...details: unknown[]): void;
}

/** Options of `new EngramMemoryBlock()` and `engramBlock()`. */
export interface EngramMemoryBlockOptions {
  /** The Engram client. A client made with `forSpace()` or a limited key already names the user. */
  client: Engram;
  /** The space (one end user's memory). Default: the client's. */
  space?: string;
  /** The block's id in the `Memory`. Default `engram`. */
  id?: string;
  /**
   * The block's priority in the `Memory`: 0 puts it in every prompt whatever the token budget;
   * higher numbers come first among the long-term blocks, which share what the budget leaves. Default 1.
   */
  priority?: number;
  /** Most memories in the context block, 1 to 50. Default: the server's (12). */
  limit?: number;
  /** Only memories of this kind in the context block. Default `all`. */
  kind?: ContextParams['kind'];
  /** The role of the message that carries the block. Default `system`. */
  messageRole?: MessageType;
  /** Milliseconds the context call may take before the chat goes on without it. Default 2000. */
  timeout?: number;
  /** When Engram is down or slow, go on without memory (true, the default) instead of throwing. */
  failOpen?: boolean;
  /** Save the conversation for Engram to learn from. Default true. */
  saveConversation?: boolean;
  /**
   * Save each finished turn as soon as the next user message comes, rather than only when the
   * `Memory` moves messages out of its short-term window (which, with the default 30,000-token
   * budget, is rare in a short chat). Default true.
   */
  saveEachTurn?: boolean;
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
 * A memory block for LlamaIndex's `Memory` (`createMemory({ memoryBlocks: [...] })`), backed by
 * Engram. `get` gives what Engram knows that bears on the latest user message, as one message
 * (the context block of `/v1/context`); `put` saves messages as a conversation for Engram to learn
 * from. Saves run in the background, once per message; `flush()` waits for them. When Engram is
 * down the chat goes on without memory, within `timeout`.
 * @example
 * const memory = createMemory({ memoryBlocks: [engramBlock({ client: new Engram(), space: user.id })] });
 * const chat = new SimpleChatEngine({ llm, memory });
 */
export class EngramMemoryBlock<TAdditionalMessageOptions extends object = object> extends BaseMemoryBlock<TAdditionalMessageOptions> {
  readonly #client: Engram;
  readonly #space: string | undefined;
  readonly #limit: number | undefined;
  readonly #kind: ContextParams['kind'] | undefined;
  readonly #messageRole: MessageType;
  readonly #timeout: number;
  readonly #failOpen: boolean;
  readonly #saveConversation: boolean;
  readonly #saveEachTurn: boolean;
  readonly #waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  readonly #heading: string;
  readonly #includeEmpty: boolean;
  readonly #logger: MemoryLogger | null;
  // Messages already saved (by id), so each is sent once however often the Memory passes it.
  readonly #saved = new BoundedMap<string, true>(REMEMBERED_MESSAGES);
  readonly #pending = new Set<Promise<unknown>>();

  constructor(options: EngramMemoryBlockOptions) {
    super({ id: options.id ?? 'engram', priority: options.priority ?? 1, isLongTerm: true });
    this.#client = options.client;
    this.#space = options.space;
    this.#limit = options.limit;
    this.#kind = options.kind;
    this.#messageRole = options.messageRole ?? 'system';
    this.#timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.#failOpen = options.failOpen ?? true;
    this.#saveConversation = options.saveConversation ?? true;
    this.#saveEachTurn = options.saveEachTurn ?? true;
    this.#waitUntil = options.waitUntil;
    this.#heading = options.heading ?? DEFAULT_HEADING;
    this.#includeEmpty = options.includeEmpty ?? false;
    this.#logger = options.logger === undefined ? { warn: (message, ...details) => console.warn(message, ...details) } : options.logger;
  }

  /** The context block for the latest user message among `messages`, as one message; none when nothing bears on it. */
  async get(messages: MemoryMessage<TAdditionalMessageOptions>[] = []): Promise<MemoryMessage<TAdditionalMessageOptions>[]> {
    const question = latestUserText(messages).slice(-MAX_QUESTION_CHARS);
    if (question === '') return [];
    if (this.#saveEachTurn) this.#saveFinishedTurns(messages);
    const block = await this.#contextFor(question);
    if (block === null) return [];
    return [{ id: `${this.id}-context`, role: this.#messageRole, content: block } as MemoryMessage<TAdditionalMessageOptions>];
  }

  /** Saves the messages not saved before as one conversation, in the background. */
  async put(messages: MemoryMessage<TAdditionalMessageOptions>[]): Promise<void> {
    this.#save(messages);
  }

  /** Resolves once every save started so far has ended (each one's failure is logged, not thrown). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #contextFor(question: string): Promise<string | null> {
    try {
      const answer = await this.#client.context(
        {
          question,
          ...(this.#limit !== undefined && { limit: this.#limit }),
          ...(this.#kind !== undefined && { kind: this.#kind }),
          ...(this.#space !== undefined && { space: this.#space }),
        },
        { timeout: this.#timeout, maxRetries: 0 },
      );
      return answer.empty && !this.#includeEmpty ? null : `${this.#heading}\n${answer.context}`;
    } catch (error) {
      if (!this.#failOpen) throw error;
      this.#logger?.warn('[engram] going on without memory: the context call failed', error);
      return null;
    }
  }

  /** The turns before the latest user message: finished, so they can be learned now. */
  #saveFinishedTurns(messages: MemoryMessage<TAdditionalMessageOptions>[]): void {
    let latestUser = messages.length - 1;
    while (latestUser >= 0 && messages[latestUser]!.role !== 'user') latestUser--;
    if (latestUser > 0) this.#save(messages.slice(0, latestUser));
  }

  #save(messages: MemoryMessage<TAdditionalMessageOptions>[]): void {
    if (!this.#saveConversation) return;
    const fresh = messages.filter((message) => !this.#saved.has(messageKey(message)));
    const conversation = savedMessages(fresh);
    if (!conversation.some((message) => message.role === 'user' || message.role === 'assistant')) return;
    // A turn that opens with the user's words is saved after the end of the reply they answer.
    const before = fresh.length ? repliedTo(messages, messages.indexOf(fresh[0]!)) : '';
    if (before !== '') conversation.unshift({ role: 'assistant', content: before });
    for (const message of fresh) this.#saved.set(messageKey(message), true);
    const saving = this.#client.memories
      .add({ messages: conversation, ...(this.#space !== undefined && { space: this.#space }) })
      .catch((error: unknown) => this.#logger?.warn('[engram] the conversation was not saved', error))
      .finally(() => this.#pending.delete(saving));
    this.#pending.add(saving);
    this.#waitUntil?.(saving);
  }
}

/**
 * An Engram memory block, like LlamaIndex's own `vectorBlock()` and `staticBlock()`.
 * @example
 * const memory = createMemory({ memoryBlocks: [engramBlock({ client: engram.forSpace(user.id) })] });
 */
export function engramBlock<TAdditionalMessageOptions extends object = object>(
  options: EngramMemoryBlockOptions,
): EngramMemoryBlock<TAdditionalMessageOptions> {
  return new EngramMemoryBlock<TAdditionalMessageOptions>(options);
}

import type { Engram, MemoryAddParams } from '@engram/client';
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage, StoredMessage } from '@langchain/core/messages';
import { mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages } from '@langchain/core/messages';
import { inSpace } from './internal/in-space.js';
import { encodePathPart, normalisePrefix } from './internal/path-part.js';
import { repliedToTail } from './internal/replied-to.js';
import { Transcript } from './internal/transcript.js';

/** Options of `new EngramChatMessageHistory()`. */
export interface EngramChatMessageHistoryInput {
  /** The Engram client; a client made with `forSpace()` or a limited key already names the user's space. */
  client: Engram;
  /** The space (one end user's memory) the session belongs to. Default: the client's own. */
  space?: string;
  /** The chat session: its messages are kept under `${pathPrefix}/${sessionId}/`. */
  sessionId: string;
  /** Where sessions are kept among the space's files. Default `/langchain/sessions`. */
  pathPrefix?: string;
  /** Save each batch of added messages as a conversation for Engram to learn from. Default true. */
  learn?: boolean;
  /** Speaker names for messages that carry none, so "I" in a user's words becomes a fact about them. */
  names?: { human?: string; ai?: string };
  /** Messages a transcript file holds before the next one is started. Default 100. */
  messagesPerFile?: number;
}

/** Message type → the role Engram's conversations use; others (system, developer) are not learned. */
const roles: Record<string, 'user' | 'assistant' | 'tool'> = {
  human: 'user',
  user: 'user',
  ai: 'assistant',
  assistant: 'assistant',
  tool: 'tool',
};

/**
 * A LangChain chat message history kept in Engram. `getMessages()` gives the session's messages
 * in order with their types; `addMessages()` appends them to the session's transcript (files
 * written with `learn: false`, so never learned) and saves them as a conversation, speakers
 * named, for Engram to learn from: each turn is learned exactly once. `clear()` empties the
 * session; what was learned from it stays in the user's memory.
 * @example
 * const history = new EngramChatMessageHistory({ client: engram, space: user.id, sessionId, names: { human: user.name } });
 * const chain = new RunnableWithMessageHistory({ runnable, getMessageHistory: () => history, inputMessagesKey: 'question', historyMessagesKey: 'history' });
 */
export class EngramChatMessageHistory extends BaseListChatMessageHistory {
  static lc_name() {
    return 'EngramChatMessageHistory';
  }

  lc_namespace = ['engram', 'chat_history'];

  /** The session. */
  readonly sessionId: string;
  readonly #client: Engram;
  readonly #space: string | undefined;
  readonly #learn: boolean;
  readonly #names: { human?: string; ai?: string };
  readonly #transcript: Transcript;

  constructor(fields: EngramChatMessageHistoryInput) {
    super(fields);
    const { client, space, sessionId, pathPrefix = '/langchain/sessions', learn = true, names = {}, messagesPerFile = 100 } = fields;
    if (!Number.isInteger(messagesPerFile) || messagesPerFile < 1) throw new Error('messagesPerFile is a whole number of at least 1');
    this.sessionId = sessionId;
    this.#client = client;
    this.#space = space;
    this.#learn = learn;
    this.#names = names;
    this.#transcript = new Transcript(client, space, `${normalisePrefix(pathPrefix)}/${encodePathPart(sessionId)}`, messagesPerFile);
  }

  /** The session's messages, in the order they were added. */
  async getMessages(): Promise<BaseMessage[]> {
    const lines = await this.#transcript.lines();
    return mapStoredMessagesToChatMessages(lines.map((line) => JSON.parse(line) as StoredMessage));
  }

  /** Adds one message (prefer `addMessages()` for a whole turn: it is learned as one exchange). */
  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Appends the messages to the session and saves them as one conversation to learn from, after the
   * end of the assistant's message they reply to (the session's last one, when it was the AI's), so
   * that a short answer is learned with the question it answers.
   */
  async addMessages(messages: BaseMessage[]): Promise<void> {
    if (!messages.length) return;
    const at = new Date().toISOString();
    const previous = this.#learn ? await this.#transcript.lastLine() : undefined;
    await this.#transcript.append(mapChatMessagesToStoredMessages(messages).map((stored) => JSON.stringify(stored)));
    if (!this.#learn) return;
    const conversation = this.#conversation(messages, at);
    if (!conversation.length) return;
    if (previous !== undefined && conversation[0]!.role === 'user') {
      const [before] = this.#conversation(mapStoredMessagesToChatMessages([JSON.parse(previous) as StoredMessage]), at);
      if (before?.role === 'assistant' && typeof before.content === 'string')
        conversation.unshift({ ...before, content: repliedToTail(before.content) });
    }
    await this.#client.memories.add({ messages: conversation, title: `Chat ${this.sessionId}`.slice(0, 300), ...inSpace(this.#space) });
  }

  /** Empties the session's transcript. What Engram learned from it stays in the user's memory. */
  async clear(): Promise<void> {
    await this.#transcript.clear();
  }

  /** The messages Engram can learn from, with their speakers' names. */
  #conversation(messages: BaseMessage[], at: string): NonNullable<MemoryAddParams['messages']> {
    const conversation: NonNullable<MemoryAddParams['messages']> = [];
    for (const message of messages) {
      const type = message.type === 'generic' ? String((message as { role?: unknown }).role ?? '').toLowerCase() : message.type;
      const role = roles[type];
      const text = message.text;
      if (!role || !text.trim()) continue;
      const name = message.name ?? (role === 'user' ? this.#names.human : role === 'assistant' ? this.#names.ai : undefined);
      conversation.push({ role, content: text, ...(name ? { name } : {}), at });
    }
    return conversation;
  }
}

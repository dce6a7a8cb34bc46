import { fingerprint, repliedToTail, textOfContent } from './text.js';

/** What this package reads of a chat message. */
export interface ChatMessageLike {
  role: string;
  content?: unknown;
}

/** What this package reads of a `chat.completions.create` body. */
export interface ChatBodyLike {
  messages: ChatMessageLike[];
  stream?: boolean | null;
}

/** What this package reads of a chat completion. */
export interface ChatCompletionLike {
  choices?: Array<{ index?: number; message?: { content?: string | null }; finish_reason?: string | null }>;
}

/** What this package reads of a streamed chunk. */
export interface ChatChunkLike {
  choices?: Array<{ index?: number; delta?: { content?: string | null }; finish_reason?: string | null }>;
}

/** Roles whose messages are the app's instructions, which come before memory. */
const INSTRUCTION_ROLES = new Set(['system', 'developer']);

/** The index of the last user message, or -1. */
export function lastUserIndex(messages: ReadonlyArray<ChatMessageLike>): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.role === 'user') return index;
  return -1;
}

/** A new user turn: the messages end with the user's words (not tool results of a turn under way). */
export const isNewTurn = (messages: ReadonlyArray<ChatMessageLike>) => messages.at(-1)?.role === 'user';

/**
 * The messages with a system message put after the leading system and developer messages: some
 * models take system messages only at the start, and the app's own instructions should come first.
 */
export function withSystemMessage<M extends ChatMessageLike>(messages: ReadonlyArray<M>, content: string): M[] {
  let at = 0;
  while (at < messages.length && INSTRUCTION_ROLES.has(messages[at]!.role)) at++;
  return [...messages.slice(0, at), { role: 'system', content } as M, ...messages.slice(at)];
}

/** The assistant's words after the turn's user message: earlier steps of a tool loop. */
export function assistantTextAfter(messages: ReadonlyArray<ChatMessageLike>, userIndex: number): string[] {
  return messages
    .slice(userIndex + 1)
    .filter((message) => message.role === 'assistant')
    .map((message) => textOfContent(message.content))
    .filter((text) => text !== '');
}

/** The end of the assistant's message just before the turn's user message (what it replies to), or ''. */
export function repliedTo(messages: ReadonlyArray<ChatMessageLike>, userIndex: number): string {
  for (let index = userIndex - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user' || INSTRUCTION_ROLES.has(message.role)) return '';
    if (message.role !== 'assistant') continue;
    const text = textOfContent(message.content);
    if (text !== '') return repliedToTail(text);
  }
  return '';
}

/** The key of a turn: the space and every message up to the turn's user message. */
export function chatTurnKey(space: string | undefined, messages: ReadonlyArray<ChatMessageLike>, userIndex: number): string {
  const upToUser = messages.slice(0, userIndex + 1).filter((message) => !INSTRUCTION_ROLES.has(message.role));
  const words = JSON.stringify(upToUser.map((message) => [message.role, textOfContent(message.content)]));
  return `chat\u0000${space ?? ''}\u0000${upToUser.length}\u0000${fingerprint(words)}`;
}

/** The first choice's reply, and whether the turn is over (the model did not stop to call tools). */
export function replyOfCompletion(completion: ChatCompletionLike): { text: string; endsTurn: boolean } {
  const choice = completion.choices?.find((candidate) => (candidate.index ?? 0) === 0) ?? completion.choices?.[0];
  const reason = choice?.finish_reason ?? null;
  return {
    text: (choice?.message?.content ?? '').trim(),
    endsTurn: reason !== null && reason !== 'tool_calls' && reason !== 'function_call',
  };
}

/** Puts the first choice's reply together from a stream's chunks. */
export function chunkCollector() {
  let text = '';
  let reason: string | null = null;
  return {
    add(chunk: ChatChunkLike) {
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue;
        if (typeof choice.delta?.content === 'string') text += choice.delta.content;
        if (choice.finish_reason) reason = choice.finish_reason;
      }
    },
    result: () => ({ text: text.trim(), endsTurn: reason !== null && reason !== 'tool_calls' && reason !== 'function_call' }),
  };
}

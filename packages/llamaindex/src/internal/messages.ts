import type { MessageContent } from '@llamaindex/core/llms';
import type { MemoryMessage } from '@llamaindex/core/memory';
import { extractText } from '@llamaindex/core/utils';

/** The longest question sent to Engram: the server refuses longer ones. */
export const MAX_QUESTION_CHARS = 2_000;

/** The roles saved: the user's words and the replies. The app's instructions and LlamaIndex's `memory` messages are not the user's. */
const SAVED_ROLES = new Set(['user', 'assistant']);

/** One message as Engram's `/v1/memories` takes it. */
export interface SavedMessage {
  role: 'user' | 'assistant';
  content: string;
  at?: string;
}

/** The text of a message's content (a string, or the text of its parts), trimmed. */
export function textOf(content: MessageContent): string {
  return extractText(content).trim();
}

/** The text of the latest user message, or '' when there is none. */
export function latestUserText(messages: ReadonlyArray<{ role: string; content: MessageContent }>): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user') return textOf(message.content);
  }
  return '';
}

/** When a message was said, as ISO 8601: a `Date`, or the string a `Memory` snapshot keeps. */
function isoTime(createdAt: unknown): string | undefined {
  const date = createdAt instanceof Date ? createdAt : typeof createdAt === 'string' ? new Date(createdAt) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/** The messages Engram can learn from, in order, with their text; empty ones and LlamaIndex's own are left out. */
export function savedMessages(messages: ReadonlyArray<MemoryMessage>): SavedMessage[] {
  const saved: SavedMessage[] = [];
  for (const message of messages) {
    if (!SAVED_ROLES.has(message.role)) continue;
    const content = textOf(message.content);
    if (content === '') continue;
    const at = isoTime(message.createdAt);
    saved.push({ role: message.role as SavedMessage['role'], content, ...(at !== undefined && { at }) });
  }
  return saved;
}

/** A key for a message: its id when it has one, else its role and words (messages from `memory.get()` carry no id). */
export function messageKey(message: { id?: string; role: string; content: MessageContent }): string {
  return typeof message.id === 'string' && message.id !== ''
    ? `id\u0000${message.id}`
    : `text\u0000${message.role}\u0000${textOf(message.content)}`;
}

/** How much of the assistant's message before a turn is saved with it, at most (its last sentences). */
export const REPLIED_TO_CHARS = 300;

/**
 * The end of the assistant's message just before `messages[first]` when that is the user's: what
 * the user replied to ("… What kind of causes do you care about most?" before "Environment
 * mostly."), from the start of a sentence, at most `max` characters; '' otherwise.
 */
export function repliedTo(messages: ReadonlyArray<MemoryMessage>, first: number, max = REPLIED_TO_CHARS): string {
  if (first <= 0 || messages[first]?.role !== 'user') return '';
  const before = messages[first - 1]!;
  if (before.role !== 'assistant') return '';
  const text = textOf(before.content);
  if (text.length <= max) return text;
  const boundary = /[.!?…]\s+/gu;
  boundary.lastIndex = text.length - max;
  const found = boundary.exec(text);
  return found === null ? text.slice(text.length - max).trim() : text.slice(found.index + found[0].length);
}

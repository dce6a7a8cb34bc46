/**
 * The parts of a language-model prompt this package reads. They hold for the AI SDK's
 * specification v3 (ai 6) and v4 (ai 7) alike, so one middleware serves both.
 */
export interface PromptPart {
  type: string;
  text?: string;
}

/** One message of a language-model prompt (specification v3 or v4). */
export type PromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user' | 'assistant' | 'tool'; content: ReadonlyArray<PromptPart> };

/** What the middleware reads of a call's options. */
export interface CallOptionsLike {
  prompt: ReadonlyArray<PromptMessage>;
  providerOptions?: Record<string, Record<string, unknown> | undefined>;
}

/** The text of a message's text parts, joined. */
export function textOf(message: PromptMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
    .trim();
}

/** The index of the last user message, or -1. */
export function lastUserIndex(prompt: ReadonlyArray<PromptMessage>): number {
  for (let index = prompt.length - 1; index >= 0; index--) if (prompt[index]!.role === 'user') return index;
  return -1;
}

/**
 * Puts a system message after the prompt's leading system messages: some providers accept
 * system messages only at the start, and the user's own instructions should come first.
 */
export function withSystemMessage<P extends CallOptionsLike>(params: P, content: string): P {
  let at = 0;
  while (at < params.prompt.length && params.prompt[at]!.role === 'system') at++;
  const prompt = [...params.prompt.slice(0, at), { role: 'system' as const, content }, ...params.prompt.slice(at)];
  return { ...params, prompt };
}

/** The assistant's words after the turn's user message: earlier steps of a tool loop. */
export function assistantTextAfter(prompt: ReadonlyArray<PromptMessage>, userIndex: number): string[] {
  return prompt
    .slice(userIndex + 1)
    .filter((message) => message.role === 'assistant')
    .map(textOf)
    .filter((text) => text !== '');
}

/** How much of the assistant's message before a turn is saved with it, at most (its last sentences). */
export const REPLIED_TO_CHARS = 300;

/**
 * The end of the assistant's message just before the turn's user message: what the user replied
 * to ("What kind of causes do you care about?" before "Environment mostly."), from the start of a
 * sentence, at most `max` characters; '' when the turn opens the conversation. Saved before the
 * user's words, it tells Engram what a short reply answers; assistant words teach no memory.
 */
export function repliedTo(prompt: ReadonlyArray<PromptMessage>, userIndex: number, max = REPLIED_TO_CHARS): string {
  for (let index = userIndex - 1; index >= 0; index--) {
    const message = prompt[index]!;
    if (message.role === 'user' || message.role === 'system') return '';
    if (message.role !== 'assistant') continue;
    const text = textOf(message);
    if (text === '') continue;
    if (text.length <= max) return text;
    const boundary = /[.!?…]\s+/gu;
    boundary.lastIndex = text.length - max;
    const found = boundary.exec(text);
    return found === null ? text.slice(text.length - max).trim() : text.slice(found.index + found[0].length);
  }
  return '';
}

/** A short, stable fingerprint of a string (FNV-1a, 64 bits), to key a turn without keeping its text. */
export function fingerprint(value: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < value.length; index++) {
    hash ^= BigInt(value.charCodeAt(index));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(36);
}

/** The key of a conversation turn: the space and every message up to the turn's user message. */
export function turnKey(space: string | undefined, prompt: ReadonlyArray<PromptMessage>, userIndex: number): string {
  const upToUser = prompt.slice(0, userIndex + 1).filter((message) => message.role !== 'system');
  return `${space ?? ''}\u0000${upToUser.length}\u0000${fingerprint(JSON.stringify(upToUser.map((message) => [message.role, textOf(message)])))}`;
}

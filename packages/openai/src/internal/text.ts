/** The longest question sent to Engram: the server refuses longer ones. */
export const MAX_QUESTION_CHARS = 2_000;

/** A part of a message's content: only text parts (`text`, `input_text`, `output_text`) are read. */
interface ContentPart {
  type?: string;
  text?: string;
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/** The text of a message's content (a string, or its text parts joined), trimmed. */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return (content as ContentPart[])
    .filter((part) => part !== null && typeof part === 'object' && TEXT_PARTS.has(part.type ?? '') && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
    .trim();
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

/** How much of the assistant's message before a turn is saved with it, at most (its last sentences). */
export const REPLIED_TO_CHARS = 300;

/**
 * The end of the assistant's message a user's turn replies to ("… What kind of causes do you care
 * about most?" before "Environment mostly."), from the start of a sentence, at most `max` characters.
 */
export function repliedToTail(text: string, max = REPLIED_TO_CHARS): string {
  if (text.length <= max) return text;
  const boundary = /[.!?…]\s+/gu;
  boundary.lastIndex = text.length - max;
  const found = boundary.exec(text);
  return found === null ? text.slice(text.length - max).trim() : text.slice(found.index + found[0].length);
}

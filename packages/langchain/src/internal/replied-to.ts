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

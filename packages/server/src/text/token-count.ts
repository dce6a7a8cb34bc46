import { countTokens } from 'gpt-tokenizer';

/** Text is counted in pieces of about this many characters, cut at white space. */
const CHUNK_CHARS = 8_000;
/** Runs of non-space characters longer than this are counted in slices of it. */
const WORD_CHARS = 200;
const LONG_RUN = new RegExp(`(\\S{${WORD_CHARS}})`, 'u');

/**
 * Tokens of a text in the o200k encoding (gpt-tokenizer). BPE is quadratic on one long
 * unbroken run of characters, so such runs are counted in slices: a 2,000,000-character
 * word takes milliseconds instead of minutes, and ordinary text counts exactly as a whole.
 */
export function countTextTokens(text: string): number {
  let total = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start) end = space;
    }
    for (const piece of text.slice(start, end).split(LONG_RUN)) {
      if (piece) total += countTokens(piece);
    }
    start = end;
  }
  return total;
}

import type { Buffer } from 'node:buffer';

/**
 * The line of `bytes` whose first word (up to its first space) is `key`, without its newline, or
 * undefined: found by halving over `starts`, where each line starts, in the order of those first
 * words as latin1 strings compare. Compares byte by byte, so a probe makes no string. Used for
 * WordNet's index files (synonyms.ts) and the word-neighbours file (neighbours.ts).
 */
export function lineOf(bytes: Buffer, starts: Int32Array, key: string): string | undefined {
  const index = lineIndexOf(bytes, starts, key);
  if (index === -1) return undefined;
  const start = starts[index]!;
  const end = bytes.indexOf(0x0a, start);
  return bytes.toString('latin1', start, end === -1 ? bytes.length : end);
}

/** The place in `starts` of the line whose first word is `key` (see lineOf), or -1: the word vectors' row (dense.ts). */
export function lineIndexOf(bytes: Buffer, starts: Int32Array, key: string): number {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAt(bytes, starts[middle]!, key);
    if (order === 0) return middle;
    if (order < 0) high = middle - 1;
    else low = middle + 1;
  }
  return -1;
}

/** `key` against the first word of the line at `start`: below 0 when it comes before, 0 when equal. */
function compareAt(bytes: Buffer, start: number, key: string): number {
  for (let index = 0; ; index++) {
    const byte = bytes[start + index];
    const wordEnded = byte === undefined || byte === 0x20 || byte === 0x0a;
    if (index === key.length) return wordEnded ? 0 : -1;
    if (wordEnded) return 1;
    const difference = key.charCodeAt(index) - byte;
    if (difference !== 0) return difference;
  }
}

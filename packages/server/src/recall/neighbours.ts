import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * Words used in the same contexts as a word in a large body of English text ("violin" → cello,
 * piano; "hiking" → trekking, camping), with how alike their uses are (cosine, 0..1): the nearest
 * neighbours of GloVe's word vectors (at most 10, cosine at least 0.55), built by
 * scripts/build-neighbours.mjs into data/neighbours.txt.gz (see data/README.md). A space's own text is far too small to learn such
 * associations from; these were learned elsewhere.
 */
export interface Neighbour {
  word: string;
  similarity: number;
}

/**
 * The file's text (about 45,000 lines, 4 MB), kept as bytes outside the JavaScript heap, and where
 * each line starts, in the order of the lines' first words: a word is found by halving, as
 * synonyms.ts finds WordNet's. Read once, on the first lookup.
 */
let table: { bytes: Buffer; starts: Int32Array } | null | undefined;

function tableOf(): { bytes: Buffer; starts: Int32Array } | null {
  if (table !== undefined) return table;
  try {
    const bytes = gunzipSync(readFileSync(new URL('../../data/neighbours.txt.gz', import.meta.url)));
    const lines: { word: string; start: number }[] = [];
    for (let start = 0; start < bytes.length; ) {
      const end = bytes.indexOf(0x0a, start);
      const space = bytes.indexOf(0x20, start);
      if (space > start && (end === -1 || space < end)) lines.push({ word: bytes.toString('latin1', start, space), start });
      if (end === -1) break;
      start = end + 1;
    }
    lines.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    table = { bytes, starts: Int32Array.from(lines, (line) => line.start) };
  } catch {
    table = null; // without the file, recall works on word forms and WordNet alone
  }
  return table;
}

/** Compares `word` with the first word of the line at `start` (both lower-case ASCII). */
function compareAt(bytes: Buffer, start: number, word: string): number {
  for (let index = 0; ; index++) {
    const byte = bytes[start + index]!;
    const lineEnded = byte === 0x20;
    if (index === word.length) return lineEnded ? 0 : -1;
    if (lineEnded) return 1;
    const difference = word.charCodeAt(index) - byte;
    if (difference !== 0) return difference;
  }
}

/** The rest of the line whose first word is `word`, or undefined. */
function restOf(word: string): string | undefined {
  const found = tableOf();
  if (!found) return undefined;
  const { bytes, starts } = found;
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const start = starts[middle]!;
    const order = compareAt(bytes, start, word);
    if (order === 0) {
      const end = bytes.indexOf(0x0a, start);
      return bytes.toString('latin1', start + word.length + 1, end === -1 ? bytes.length : end);
    }
    if (order < 0) high = middle - 1;
    else low = middle + 1;
  }
  return undefined;
}

/** A word's neighbours, most alike first; [] for a word the file does not hold (names among them: it holds only lower-case words). */
export function neighbourWords(word: string): Neighbour[] {
  if (!/^[a-z]+$/.test(word)) return [];
  const rest = restOf(word);
  if (rest === undefined) return [];
  const fields = rest.split(' ');
  const neighbours: Neighbour[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    neighbours.push({ word: fields[index]!, similarity: Number(fields[index + 1]) / 100 });
  }
  return neighbours;
}

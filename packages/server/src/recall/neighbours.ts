import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { lineOf } from './sorted-lines.js';

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

/** A word's neighbours, most alike first; [] for a word the file does not hold (names among them: it holds only lower-case words). */
export function neighbourWords(word: string): Neighbour[] {
  if (!/^[a-z]+$/.test(word)) return [];
  const found = tableOf();
  const line = found ? lineOf(found.bytes, found.starts, word) : undefined;
  if (line === undefined) return [];
  const rest = line.slice(word.length + 1);
  const fields = rest.split(' ');
  const neighbours: Neighbour[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    neighbours.push({ word: fields[index]!, similarity: Number(fields[index + 1]) / 100 });
  }
  return neighbours;
}

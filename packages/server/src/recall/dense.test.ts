import { describe, expect, it } from 'vitest';
import {
  cosineAt,
  DENSE_FLOOR,
  DENSE_WEIGHT,
  denseCue,
  denseDimensions,
  memoryVectors,
  quantise,
  rowWeight,
  stemRow,
  textVector,
} from './dense.js';

const dot = (left: Float32Array, right: Float32Array) => left.reduce((sum, value, index) => sum + value * right[index]!, 0);

/** A memory's vector as a copy writes it, from lexemes with their levels (3 its own words, 2 the rest of its message, 1 the message it answers). */
function memoryVector(lexemes: [string, number][], about: string[] = []): { values: Int8Array; inverse: number } {
  const values = new Int8Array(denseDimensions());
  const inverse = memoryVectors.write(
    {
      rows: Int32Array.from(lexemes, ([lexeme]) => stemRow(lexeme)),
      levels: lexemes.map(([, level]) => level),
      positioned: lexemes.map(() => true),
      lexemes: lexemes.map(([lexeme]) => lexeme),
      count: lexemes.length,
      about,
    },
    values,
    0,
  );
  return { values, inverse };
}

describe('word vectors (dense.ts)', () => {
  it('holds a vector for the stems Postgres makes, none for names, capitals or unknown words', () => {
    expect(denseDimensions()).toBe(100);
    for (const stem of ['potteri', 'hike', 'puppi', 'kitten', 'electr']) expect(stemRow(stem)).toBeGreaterThanOrEqual(0);
    // First names are left out of the file: a memory naming someone is not about the name's meaning.
    expect(stemRow('melani')).toBe(-1);
    expect(stemRow('Pottery')).toBe(-1);
    expect(stemRow('zzzqx')).toBe(-1);
  });

  it('finds a text alike in meaning with no word in common', () => {
    const pets = textVector(['pet'])!;
    const adopted = textVector(['adopt', 'puppi', 'kitten'])!;
    const bill = textVector(['paid', 'electr', 'bill'])!;
    expect(dot(pets, adopted)).toBeGreaterThan(DENSE_FLOOR);
    expect(dot(pets, bill)).toBeLessThan(DENSE_FLOOR);
    const instruments = textVector(['instrument', 'play'])!;
    expect(dot(instruments, textVector(['play', 'violin', 'cello'])!)).toBeGreaterThan(dot(instruments, textVector(['bake', 'bread'])!));
  });

  it('weighs a frequent word less than a rare one (smooth inverse frequency)', () => {
    expect(rowWeight(stemRow('time'))).toBeLessThan(0.5);
    expect(rowWeight(stemRow('potteri'))).toBeGreaterThan(0.95);
  });

  it('keeps int8 values whose cosine is the float one', () => {
    const pets = textVector(['pet'])!;
    const adopted = textVector(['adopt', 'puppi', 'kitten'])!;
    const values = new Int8Array(2 * adopted.length);
    const inverse = quantise(adopted, values, adopted.length);
    expect(cosineAt(pets, values, adopted.length, inverse)).toBeCloseTo(dot(pets, adopted), 2);
    expect(quantise(new Float32Array(adopted.length), values, 0)).toBe(0);
    expect(cosineAt(pets, values, 0, 0)).toBe(0);
  });

  it('leaves the names a memory is about out of its vector', () => {
    // "Summer" is a word of the file and a name here: the memory is about pottery, not a season.
    const pottery = memoryVector([['potteri', 3]]);
    const named = memoryVector(
      [
        ['summer', 3],
        ['potteri', 3],
      ],
      ['Summer Hale'],
    );
    expect(Array.from(named.values)).toEqual(Array.from(pottery.values));
    const unnamed = memoryVector([
      ['summer', 3],
      ['potteri', 3],
    ]);
    expect(Array.from(unnamed.values)).not.toEqual(Array.from(pottery.values));
  });

  it('counts the rest of the message at half a word of its own, the message it answers at a quarter', () => {
    const query = textVector(['potteri'])!;
    const cosine = (vector: { values: Int8Array; inverse: number }) => cosineAt(query, vector.values, 0, vector.inverse);
    const own = memoryVector([
      ['potteri', 3],
      ['bill', 2],
    ]);
    const message = memoryVector([
      ['potteri', 2],
      ['bill', 3],
    ]);
    expect(cosine(own)).toBeGreaterThan(cosine(message));
    expect(cosine(message)).toBeGreaterThan(cosine(memoryVector([['bill', 3]])));
    const answered = memoryVector([
      ['potteri', 1],
      ['bill', 3],
    ]);
    expect(cosine(message)).toBeGreaterThan(cosine(answered));
    expect(cosine(answered)).toBeGreaterThan(cosine(memoryVector([['bill', 3]])));
    expect(memoryVector([['potteri', 0]]).inverse).toBe(0);
  });

  it('adds to a score only above the floor, in proportion', () => {
    expect(denseCue(DENSE_FLOOR)).toBe(0);
    expect(denseCue(0.1)).toBe(0);
    expect(denseCue(DENSE_FLOOR + 0.5)).toBeCloseTo(DENSE_WEIGHT * 0.5, 6);
  });
});

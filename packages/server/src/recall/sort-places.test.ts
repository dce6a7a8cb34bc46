import { describe, expect, it } from 'vitest';
import { sortPlaces } from './sort-places.js';

/** The order search.ts's comparator gives: score, then id, highest first. */
function byComparator(length: number, score: Float64Array, id: Int32Array): number[] {
  return Array.from({ length }, (_, place) => place).sort((left, right) =>
    score[right]! > score[left]! ? 1 : score[right]! < score[left]! ? -1 : id[right]! - id[left]!,
  );
}

describe('sortPlaces', () => {
  it('orders places by score and then id, highest first, as the comparator does', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (const length of [0, 1, 2, 15, 16, 17, 33, 100, 1_000, 4_097]) {
      // Few distinct scores, so that many places tie and their ids decide.
      const score = Float64Array.from({ length }, () => Math.floor(random() * 7) / 7);
      const id = Int32Array.from({ length }, (_, place) => 3 * place + Math.floor(random() * 3));
      const order = Int32Array.from({ length }, (_, place) => (place * 7_919) % Math.max(length, 1));
      if (length % 7_919 === 0 && length) continue;
      sortPlaces(order, length, score, id);
      expect(Array.from(order)).toEqual(byComparator(length, score, id));
    }
  });

  it('sorts only the first `length` places and leaves the rest as they are', () => {
    const score = Float64Array.from([0.1, 0.9, 0.5, 0.7]);
    const id = Int32Array.from([1, 2, 3, 4]);
    const order = Int32Array.from([0, 1, 2, 3]);
    sortPlaces(order, 3, score, id, new Int32Array(1));
    expect(Array.from(order)).toEqual([1, 2, 0, 3]);
  });
});

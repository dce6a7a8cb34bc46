import { describe, expect, it } from 'vitest';
import { keysetRows, sizedBatches } from './record-kind.js';

describe('keysetRows', () => {
  it('reads page after page from the last key until a page comes back short', async () => {
    const rows = Array.from({ length: 7 }, (_, index) => ({ id: index + 1 }));
    const asked: (number | null)[] = [];
    const page = async (after: number | null) => {
      asked.push(after);
      return rows.filter((row) => row.id > (after ?? 0)).slice(0, 3);
    };
    const read = [];
    for await (const row of keysetRows(page, (row) => row.id, 3)) read.push(row.id);
    expect(read).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(asked).toEqual([null, 3, 6]);
  });

  it('asks once more after a full last page, and stops at an empty one', async () => {
    const asked: (number | null)[] = [];
    const page = async (after: number | null) => {
      asked.push(after);
      return after === null ? [{ id: 1 }, { id: 2 }] : [];
    };
    const read = [];
    for await (const row of keysetRows(page, (row) => row.id, 2)) read.push(row.id);
    expect(read).toEqual([1, 2]);
    expect(asked).toEqual([null, 2]);
  });
});

describe('sizedBatches', () => {
  it('keeps each batch within the bytes given, a record larger than that alone', () => {
    const entries = [
      { key: 'a', bytes: 3 },
      { key: 'b', bytes: 4 },
      { key: 'c', bytes: 20 },
      { key: 'd', bytes: 1 },
      { key: 'e', bytes: 9 },
    ];
    expect(sizedBatches(entries, 10)).toEqual([['a', 'b'], ['c'], ['d', 'e']]);
    expect(sizedBatches([], 10)).toEqual([]);
  });
});

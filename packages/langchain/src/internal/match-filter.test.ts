import { describe, expect, it } from 'vitest';
import { matchesFilter } from './match-filter.js';

describe('matchesFilter', () => {
  const value = { status: 'open', points: 5, tags: ['a'], owner: { name: 'Ana' } };

  it('passes every value when there is no filter', () => {
    expect(matchesFilter(value, undefined)).toBe(true);
    expect(matchesFilter(value, {})).toBe(true);
  });

  it('compares plain values for equality, objects and arrays by content', () => {
    expect(matchesFilter(value, { status: 'open' })).toBe(true);
    expect(matchesFilter(value, { status: 'done' })).toBe(false);
    expect(matchesFilter(value, { owner: { name: 'Ana' }, tags: ['a'] })).toBe(true);
    expect(matchesFilter(value, { missing: 'x' })).toBe(false);
  });

  it("takes LangGraph's operators, all of which must hold", () => {
    expect(matchesFilter(value, { points: { $gt: 4, $lte: 5 } })).toBe(true);
    expect(matchesFilter(value, { points: { $gte: 6 } })).toBe(false);
    expect(matchesFilter(value, { points: { $lt: 5 } })).toBe(false);
    expect(matchesFilter(value, { status: { $ne: 'done' }, points: { $eq: 5 } })).toBe(true);
    expect(matchesFilter(value, { status: { $in: ['open', 'later'] } })).toBe(true);
    expect(matchesFilter(value, { status: { $nin: ['open'] } })).toBe(false);
  });
});

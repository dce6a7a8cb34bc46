import { describe, expect, it } from 'vitest';
import { classifyFact } from './classify.js';

describe('classifyFact', () => {
  it.each([
    ["Priya's sister is a nurse.", 'people'],
    ['Wendell has two kids.', 'people'],
    ['Priya is a transgender woman.', 'people'],
    ['Bashir got married in June 2023.', 'people'],
    ['Priya is going to Paris in December 2026.', 'plan'],
    ['Priya will call Dr. Smith on 23 November 2026.', 'plan'],
    ['Wendell plans to paint a mural.', 'plan'],
    ['Priya loves hiking.', 'pref'],
    ["Priya's favourite book is Dune.", 'pref'],
    ['Priya really doesn’t like horror movies.', 'pref'],
    ['Priya wants a dog.', 'pref'],
    ['Priya went to a support group on 7 May 2023.', 'detail'],
    ['Wendell is swamped with the kids and work.', 'detail'],
    ['Wendell said Priya will be an awesome mom.', 'detail'],
  ] as const)('%s -> %s', (text, kind) => {
    expect(classifyFact(text)).toBe(kind);
  });

  it('calls a fact with a date after the day it was said a plan', () => {
    expect(classifyFact('Priya is meeting Bashir on Friday 27 November 2026.', { future: true })).toBe('plan');
    expect(classifyFact('Priya is meeting Bashir on Friday 27 November 2026.', { future: false })).toBe('detail');
  });

  it('puts plans before preferences and preferences before people', () => {
    expect(classifyFact("Priya's sister will visit next week.")).toBe('plan');
    expect(classifyFact('Wendell loves her kids.')).toBe('pref');
  });
});

import { describe, expect, it } from 'vitest';
import { classifyFact } from './classify.js';

describe('classifyFact', () => {
  it.each([
    ["Caroline's sister is a nurse.", 'people'],
    ['Melanie has two kids.', 'people'],
    ['Caroline is a transgender woman.', 'people'],
    ['Jon got married in June 2023.', 'people'],
    ['Caroline is going to Paris in December 2026.', 'plan'],
    ['Caroline will call Dr. Smith on 23 November 2026.', 'plan'],
    ['Melanie plans to paint a mural.', 'plan'],
    ['Caroline loves hiking.', 'pref'],
    ["Caroline's favourite book is Dune.", 'pref'],
    ['Caroline really doesn’t like horror movies.', 'pref'],
    ['Caroline wants a dog.', 'pref'],
    ['Caroline went to a support group on 7 May 2023.', 'detail'],
    ['Melanie is swamped with the kids and work.', 'detail'],
    ['Melanie said Caroline will be an awesome mom.', 'detail'],
  ] as const)('%s -> %s', (text, kind) => {
    expect(classifyFact(text)).toBe(kind);
  });

  it('calls a fact with a date after the day it was said a plan', () => {
    expect(classifyFact('Caroline is meeting Jon on Friday 27 November 2026.', { future: true })).toBe('plan');
    expect(classifyFact('Caroline is meeting Jon on Friday 27 November 2026.', { future: false })).toBe('detail');
  });

  it('puts plans before preferences and preferences before people', () => {
    expect(classifyFact("Caroline's sister will visit next week.")).toBe('plan');
    expect(classifyFact('Melanie loves her kids.')).toBe('pref');
  });
});

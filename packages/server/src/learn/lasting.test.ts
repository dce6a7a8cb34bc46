import { describe, expect, it } from 'vitest';
import { isLasting } from './lasting.js';

describe('isLasting', () => {
  it('keeps identity, relationships, likes and background as lasting', () => {
    expect(isLasting("Maya's brother Sam is a carpenter.", 'My brother Sam is a carpenter.', 'people')).toBe(true);
    expect(isLasting('Maya loves hiking.', 'I love hiking.', 'pref')).toBe(true);
    expect(isLasting('Maya grew up in Galway before moving to England.', 'I grew up in Galway before moving to England.', 'people')).toBe(
      true,
    );
  });

  it('holds plans, passing states, home and work, and what the sentence ties to now, as current', () => {
    expect(isLasting('Maya is visiting Porto on 3 December 2026.', 'I am visiting Porto next week.', 'plan')).toBe(false);
    expect(isLasting('Maya is reading a novel in the week of 2 November 2026.', 'I am reading a novel this week.', 'detail')).toBe(false);
    expect(isLasting('Maya is learning Portuguese.', 'I am learning Portuguese.', 'detail')).toBe(false);
    expect(isLasting('Maya lives in Lisbon.', 'I live in Lisbon.', 'people')).toBe(false);
    expect(isLasting('Leo works at Northwind Labs as a food scientist.', 'I work at Northwind Labs as a food scientist.', 'people')).toBe(
      false,
    );
  });
});

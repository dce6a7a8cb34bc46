import { describe, expect, it } from 'vitest';
import { slotOf } from './slots.js';

describe('slotOf', () => {
  it('gives where someone lives one slot, whether they live there or moved there', () => {
    expect(slotOf('Omar lives in Lisbon.', ['Omar', 'Lisbon'])).toBe('omar|home');
    expect(slotOf('Omar moved to Berlin on 3 May 2026.', ['Omar', 'Berlin'])).toBe('omar|home');
    expect(slotOf('The user relocated to Cork.', ['Cork'])).toBe('the user|home');
  });

  it('reads work, partner, age and favourites as slots of their own', () => {
    expect(slotOf('Priya works as a marine biologist in Cork.', ['Priya', 'Cork'])).toBe('priya|work');
    expect(slotOf('Bashir got a new job at Google.', ['Bashir', 'Google'])).toBe('bashir|work');
    expect(slotOf('Ana is engaged to Luis.', ['Ana', 'Luis'])).toBe('ana|partner');
    expect(slotOf('Ana is 34 years old.', ['Ana'])).toBe('ana|age');
    expect(slotOf("Priya's favourite book is Becoming by Michelle Obama.", ['Priya', 'Michelle Obama'])).toBe('priya|favourite-book');
  });

  it('gives no slot to plans, additions, questions, or a capitalised word that is not the subject', () => {
    expect(slotOf('Omar is moving to Berlin in June 2027.', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Omar visited Berlin.', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Wendell loves pottery.', ['Wendell'])).toBeNull();
    expect(slotOf('Does Omar live in Berlin?', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Yesterday moved to Berlin.', ['Berlin'])).toBeNull();
  });
});

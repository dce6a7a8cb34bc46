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
    // A start at a named place, or the job at one, is where someone works now.
    expect(slotOf('Bashir started full time at Keller & Sons on Monday 5 January 2026.', ['Bashir', 'Keller & Sons'])).toBe('bashir|work');
    expect(slotOf('The user accepted the job at Brightwell.', ['Brightwell'])).toBe('the user|work');
    expect(slotOf('The user has been a graphic designer at Halden Print for four years.', ['Halden Print'])).toBe('the user|work');
    expect(slotOf('Bashir is a pediatric nurse at Mercy General.', ['Bashir', 'Mercy General'])).toBe('bashir|work');
    expect(slotOf('Ana is engaged to Luis.', ['Ana', 'Luis'])).toBe('ana|partner');
    expect(slotOf('Ana is 34 years old.', ['Ana'])).toBe('ana|age');
    expect(slotOf("Priya's favourite book is Becoming by Michelle Obama.", ['Priya', 'Michelle Obama'])).toBe('priya|favourite-book');
  });

  it('keeps a diet as one slot ("The user is vegan", later "The user is pescatarian now")', () => {
    expect(slotOf('The user is vegan.')).toBe('the user|diet');
    expect(slotOf('The user has been vegetarian for three years.')).toBe('the user|diet');
    expect(slotOf('Omar went vegan in March 2026.', ['Omar'])).toBe('omar|diet');
    expect(slotOf('The user is a strict vegetarian.')).toBe('the user|diet');
    // A diet's word describing a thing, or a diet half kept, fills no slot.
    expect(slotOf('The user loves vegan food.')).toBeNull();
    expect(slotOf('The user is vegan friendly.')).toBeNull();
    expect(slotOf('The user is vegan-ish.')).toBeNull();
  });

  it('reads the slot after a label ("Quick update: the user moved to Oslo")', () => {
    expect(slotOf('Quick update: the user moved to Oslo in March 2026.', ['Oslo'])).toBe('the user|home');
    expect(slotOf('Big news: Omar got a new job at Halden.', ['Omar', 'Halden'])).toBe('omar|work');
    expect(slotOf('Note to self: buy milk.')).toBeNull();
  });

  it('gives no home to living in a thing all day ("The user lives in Figma all day")', () => {
    expect(slotOf('The user lives in Figma all day.', ['Figma'])).toBeNull();
    expect(slotOf('The user lives in Slack 24/7.', ['Slack'])).toBeNull();
    expect(slotOf('The user lives in Leeds.', ['Leeds'])).toBe('the user|home');
  });

  it('gives no slot to plans, additions, questions, or a capitalised word that is not the subject', () => {
    expect(slotOf('Omar is moving to Berlin in June 2027.', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Omar visited Berlin.', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Wendell loves pottery.', ['Wendell'])).toBeNull();
    expect(slotOf('Does Omar live in Berlin?', ['Omar', 'Berlin'])).toBeNull();
    expect(slotOf('Yesterday moved to Berlin.', ['Berlin'])).toBeNull();
    expect(slotOf('Bashir started at 9am.', ['Bashir'])).toBeNull();
    expect(slotOf('Bashir is a big fan at Anfield.', ['Bashir', 'Anfield'])).toBeNull();
  });
});

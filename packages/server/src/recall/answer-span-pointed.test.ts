import { describe, expect, it } from 'vitest';
import { pointedThing } from './answer-span.js';
import { shortAnswer } from './ask.js';

describe('pointedThing (rule "the thing pointed at")', () => {
  it('answers "what" with the thing a memory opens by pointing at', () => {
    const memory = "This scarf is super special to Odile - a gift from Odile's aunt in Lisbon.";
    expect(pointedThing("What was the aunt's gift to Odile?", memory)).toBe('scarf');
    expect(shortAnswer("What was the aunt's gift to Odile?", memory)).toBe('scarf');
    expect(shortAnswer('What has Bram bought?', 'These mugs Bram bought last spring remind Bram of the seaside.')).toBe('mugs');
  });

  it('gives nothing when the question names the thing, the question is not "what", or nothing is pointed at', () => {
    expect(pointedThing('What does the scarf remind Odile of?', 'This scarf reminds Odile of her aunt.')).toBeNull();
    expect(pointedThing('Who gave Odile the scarf?', 'This scarf was a gift from her aunt.')).toBeNull();
    expect(pointedThing('What was the gift?', 'It was a gift from her aunt.')).toBeNull();
  });
});

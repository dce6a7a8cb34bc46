import { describe, expect, it } from 'vitest';
import { splitSentences } from './segment.js';

describe('splitSentences', () => {
  it('cuts at sentence ends and gives offsets that slice back to each sentence', () => {
    const text = 'Hey Mel! Good to see you! How have you been?';
    const segments = splitSentences(text);
    expect(segments).toEqual([
      { text: 'Hey Mel!', start: 0, end: 8 },
      { text: 'Good to see you!', start: 9, end: 25 },
      { text: 'How have you been?', start: 26, end: 44 },
    ]);
    for (const segment of segments) expect(text.slice(segment.start, segment.end)).toBe(segment.text);
  });

  it('keeps titles, e.g., initials and decimals inside a sentence', () => {
    const text = 'I saw Dr. Smith at 3.5 miles out, e.g. near the lake. J. K. Rowling wrote it.';
    expect(splitSentences(text).map((segment) => segment.text)).toEqual([
      'I saw Dr. Smith at 3.5 miles out, e.g. near the lake.',
      'J. K. Rowling wrote it.',
    ]);
  });

  it('keeps initials written together inside a sentence', () => {
    const text = 'W.E.B. Okafor runs the bakery. Her bread is dense.';
    expect(splitSentences(text).map((segment) => segment.text)).toEqual(['W.E.B. Okafor runs the bakery.', 'Her bread is dense.']);
  });

  it('treats line breaks and bullets as boundaries and leaves the markers out', () => {
    const text = 'Groceries:\n- Buy milk\n* Call Mom on Friday\n1. Pay rent\n\nDone';
    const segments = splitSentences(text);
    expect(segments.map((segment) => segment.text)).toEqual(['Groceries:', 'Buy milk', 'Call Mom on Friday', 'Pay rent', 'Done']);
    expect(segments[1]).toEqual({ text: 'Buy milk', start: 13, end: 21 });
    for (const segment of segments) expect(text.slice(segment.start, segment.end)).toBe(segment.text);
  });

  it('joins a wrapped line that carries on in lower case', () => {
    expect(splitSentences('We walked along the\nriver for hours.').map((segment) => segment.text)).toEqual([
      'We walked along the\nriver for hours.',
    ]);
  });

  it('does not cut after an ellipsis followed by lower case, but does after an emoji before a capital', () => {
    expect(splitSentences('Well... maybe later. Inspiring 💪 I emailed them.').map((segment) => segment.text)).toEqual([
      'Well... maybe later.',
      'Inspiring 💪',
      'I emailed them.',
    ]);
  });

  it('skips pieces with no letter or digit', () => {
    expect(splitSentences('  -  \n 🎉 \nOk then.')).toEqual([{ text: 'Ok then.', start: 11, end: 19 }]);
  });
});

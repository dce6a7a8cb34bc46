import { describe, expect, it } from 'vitest';
import { billableText, blankExcept, diffSentences, planRewrite, sentenceIndex } from './diff.js';

const before = 'Ana lives in Porto.\n\nAna plays the cello. Ana owns a red bike.\n\nAna works at a bakery.';
const after = 'Ana lives in Porto.\n\nAna plays the violin. Ana owns a red bike.\n\nAna works at a bakery.';

describe('diffSentences', () => {
  it('finds the one changed sentence and keeps the rest', () => {
    const diff = diffSentences(before, after);
    expect(diff.removed.map((segment) => segment.text)).toEqual(['Ana plays the cello.']);
    expect(diff.added.map((segment) => segment.text)).toEqual(['Ana plays the violin.']);
    expect(diff.kept.map((pair) => pair.after.text)).toEqual(['Ana lives in Porto.', 'Ana owns a red bike.', 'Ana works at a bakery.']);
    const bike = diff.kept[1]!;
    expect(bike.after.start - bike.before.start).toBe(1); // "violin" is one letter longer
  });

  it('keeps a paragraph that only moved', () => {
    const moved = 'Ana works at a bakery.\n\nAna lives in Porto.\n\nAna plays the cello. Ana owns a red bike.';
    const diff = diffSentences(before, moved);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
  });

  it('pairs repeated sentences one for one', () => {
    const diff = diffSentences('Hi there. Hi there.', 'Hi there. Hi there. Hi there.');
    expect(diff.kept).toHaveLength(2);
    expect(diff.added).toHaveLength(1);
  });
});

describe('blankExcept', () => {
  it('keeps the length and line breaks, and only the chosen sentences', () => {
    const diff = diffSentences(before, after);
    const body = blankExcept(after, diff.added);
    expect(body).toHaveLength(after.length);
    expect(body.trim()).toBe('Ana plays the violin.');
    expect(body.split('\n')).toHaveLength(after.split('\n').length);
    const start = diff.added[0]!.start;
    expect(body.slice(start, start + 21)).toBe('Ana plays the violin.');
  });
});

describe('planRewrite', () => {
  it('learns only the new sentence when the old text was learned', () => {
    const plan = planRewrite(before, null, after);
    expect(plan.toLearn.map((segment) => segment.text)).toEqual(['Ana plays the violin.']);
  });

  it('also learns kept sentences the old body had not learned yet', () => {
    const pending = blankExcept(
      before,
      diffSentences('', before).added.filter((segment) => segment.text.includes('bike')),
    );
    const plan = planRewrite(before, pending, after);
    expect(plan.toLearn.map((segment) => segment.text)).toEqual(['Ana plays the violin.', 'Ana owns a red bike.']);
  });

  it('has nothing to learn when only a sentence was removed', () => {
    const plan = planRewrite(before, null, 'Ana lives in Porto.');
    expect(plan.body).toBeNull();
    expect(plan.diff.removed).toHaveLength(3);
  });
});

describe('sentenceIndex', () => {
  it('says where a learned sentence went', () => {
    const diff = diffSentences(before, after);
    const where = sentenceIndex(diff);
    const cello = before.indexOf('Ana plays the cello.');
    const bike = before.indexOf('Ana owns a red bike.');
    expect(where(cello, cello + 20)).toEqual({ removed: true });
    expect(where(bike, bike + 20)).toEqual({ removed: false, delta: 1 });
    expect(where(0, 19)).toEqual({ removed: false, delta: 0 });
    expect(where(19, 21)).toBeNull();
  });
});

describe('billableText', () => {
  it('counts each run of blanks once', () => {
    expect(billableText('   \n\n  Ana plays the violin.      Ana sings.\n\n   ')).toBe('Ana plays the violin. Ana sings.');
    expect(billableText('One.\n\n      \nTwo.')).toBe('One.\nTwo.');
  });
});

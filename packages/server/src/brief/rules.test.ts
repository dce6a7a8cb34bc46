import { describe, expect, it } from 'vitest';
import { sentenceStructures } from './learn-structures.js';
import { allRules, screens } from './rules.js';

/** Which rule ids a sentence is learned by (screens first, as the learner does). */
function learnedBy(sentence: string): string[] {
  const found = sentenceStructures(sentence);
  return [found.state?.rule.id, found.intention?.rule.id, found.lesson?.rule.id].filter((id): id is string => id !== undefined);
}

describe('the named rules', () => {
  it('each has an id, a one-line reason, examples and counter-examples', () => {
    const ids = allRules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of allRules) {
      expect(rule.reason).toMatch(/^[A-Z].+\.$/);
      expect(rule.reason).not.toContain('\n');
      expect(rule.examples.length).toBeGreaterThan(0);
      expect(rule.counterExamples.length).toBeGreaterThan(0);
    }
    for (const screen of screens) expect(screen.reason).toMatch(/^[A-Z].+\.$/);
  });

  const examples = allRules.flatMap((rule) => rule.examples.map((sentence) => [rule.id, sentence] as const));
  it.each(examples)('%s learns: %s', (id, sentence) => {
    expect(learnedBy(sentence)).toContain(id);
  });

  const counterExamples = allRules.flatMap((rule) => rule.counterExamples.map((sentence) => [rule.id, sentence] as const));
  it.each(counterExamples)('%s does not learn: %s', (id, sentence) => {
    expect(learnedBy(sentence)).not.toContain(id);
  });
});

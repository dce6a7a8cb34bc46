import { describe, expect, it } from 'vitest';
import { learnFromText } from '../learn/index.js';
import { learnFromLongText } from './facts-of.js';

const writtenAt = new Date('2026-11-22T12:00:00Z');

describe('learnFromLongText', async () => {
  it('learns a long note piece by piece with offsets into the whole text', async () => {
    const paragraphs = Array.from({ length: 700 }, (_, index) => `Mara planted ${index + 1} olive trees in grove ${index + 1}.`);
    const text = paragraphs.join('\n\n');
    expect(text.length).toBeGreaterThan(8_000);
    const facts = await learnFromLongText(text, { writtenAt });
    expect(facts).toHaveLength(700);
    for (const fact of facts) expect(text.slice(fact.sentence.start, fact.sentence.end)).toBe(fact.sentence.text);
    expect(facts.map((fact) => fact.text)).toEqual(paragraphs.map((paragraph) => learnFromText(paragraph, { writtenAt })[0]!.text));
  });

  it('skips blank stretches and finds the one sentence left in them', async () => {
    const text = `${' '.repeat(50_000)}\n${'\n'.repeat(20_000)}Mara sold the red tractor to Ivo.${' '.repeat(30_000)}`;
    const facts = await learnFromLongText(text, { writtenAt });
    expect(facts).toHaveLength(1);
    expect(text.slice(facts[0]!.sentence.start, facts[0]!.sentence.end)).toBe(facts[0]!.sentence.text);
    expect(facts[0]!.text).toMatch(/Mara sold the red tractor to Ivo/);
  });

  it('cuts a long paragraph after a sentence, never inside one: the same facts as learning it whole', async () => {
    const sentences = Array.from({ length: 600 }, (_, index) => `Ivo repaired tractor number ${index + 1} on Monday.`);
    const text = sentences.join(' ');
    const pieces = await learnFromLongText(text, { writtenAt });
    const whole = learnFromText(text, { writtenAt });
    expect(pieces.map((fact) => [fact.text, fact.sentence.start, fact.sentence.end])).toEqual(
      whole.map((fact) => [fact.text, fact.sentence.start, fact.sentence.end]),
    );
    for (const fact of pieces) expect(sentences).toContain(fact.sentence.text);
  });
});

import { describe, expect, it } from 'vitest';
import type { BriefingPart } from './briefing-text.js';
import { fitBriefing, line, MAX_LINE_CHARS } from './briefing-text.js';

/** A deterministic stream of numbers, so that the parts are the same on every run. */
function numbers(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function partsOf(seed: number): BriefingPart[] {
  const next = numbers(seed);
  const words = ['budget', 'landlord', 'deploy', 'pricing', 'review', 'Ana', 'Friday', 'invoice', 'release', 'sync'];
  const sentence = () => Array.from({ length: 3 + Math.floor(next() * 60) }, () => words[Math.floor(next() * words.length)]).join(' ');
  return ['Where things stand', 'What is due', 'Rules that apply', 'What happened', 'Memories'].map((heading, index) => ({
    heading,
    perTurn: index === 0 || index === 4 ? 2 : 1,
    lines: Array.from({ length: Math.floor(next() * 60) }, (_, position) => ({
      text: line(`- ${position} ${sentence()}.`),
      item: position,
    })),
  }));
}

describe('fitBriefing', () => {
  it('never passes the budget, never cuts a line, and a larger budget only adds lines', () => {
    for (const seed of [1, 7, 42, 2026]) {
      const parts = partsOf(seed);
      const allLines = new Set(parts.flatMap((part) => part.lines.map((entry) => entry.text)));
      let previous: { text: string; shown: number[] } | null = null;
      for (let budget = 500; budget <= 40_000; budget += 250) {
        const fitted = fitBriefing('Briefing (2026-11-23)', parts, budget);
        expect(fitted.text.length).toBeLessThanOrEqual(budget);
        const headings = new Set(parts.map((part) => part.heading));
        const cut = fitted.text
          .split('\n')
          .slice(1)
          .filter((text) => text !== '' && !headings.has(text) && !allLines.has(text));
        expect(cut).toEqual([]);
        if (previous) {
          expect(fitted.shown.every((count, index) => count >= previous!.shown[index]!)).toBe(true);
          // Every line shown at the smaller budget is shown at the larger one, in the same order.
          const lines = fitted.text.split('\n');
          let at = 0;
          const missing = previous.text.split('\n').filter((text) => {
            at = lines.indexOf(text, at);
            return at < 0;
          });
          expect(missing).toEqual([]);
        }
        previous = fitted;
      }
    }
  });

  it('visits every part before giving one part more', () => {
    const parts = partsOf(3).map((part) => ({
      ...part,
      lines: [
        { text: '- short line', item: 0 },
        { text: '- second line', item: 1 },
      ],
    }));
    const fitted = fitBriefing('Briefing', parts, 500);
    expect(fitted.shown).toEqual([2, 2, 2, 2, 2]);
    const small = fitBriefing('Briefing', parts, 120);
    expect(small.shown.filter((count) => count > 0).length).toBeGreaterThanOrEqual(3);
  });

  it('shortens a very long item once, whatever the budget', () => {
    const long = line(`- ${'word '.repeat(200)}`);
    expect(long.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../test/fixtures/briefing-corpus.js';
import { corpus, documentInput, heldOut } from '../../test/fixtures/briefing-corpus.js';
import { factsOf } from '../learn/facts-of.js';

type Structure = 'S' | 'I' | 'L';
const names: Record<Structure, string> = { S: 'project state', I: 'intentions', L: 'lessons' };

/** The floor each structure's precision and recall must reach (docs/benchmarks.md has the figures). */
const FLOOR = 0.8;

/** Precision and recall of each structure over a set of labelled documents. */
async function measure(documents: CorpusDocument[]) {
  const counts = { S: { tp: 0, fp: 0, fn: 0 }, I: { tp: 0, fp: 0, fn: 0 }, L: { tp: 0, fp: 0, fn: 0 } };
  const positives = { S: 0, I: 0, L: 0, '-': 0 };
  const misses: string[] = [];
  let episodes = 0;
  let episodesRight = 0;
  for (const document of documents) {
    const input = documentInput(document);
    const read = await factsOf({
      kind: document.kind,
      body: input.text ?? null,
      messages: input.messages ?? null,
      written_at: new Date(document.at),
      title: null,
    });
    const structures = read.structures!;
    const learned: { structure: Structure; said: string }[] = [
      ...structures.state.map((item) => ({ structure: 'S' as const, said: item.said })),
      ...structures.intentions.map((item) => ({ structure: 'I' as const, said: item.said })),
      ...structures.lessons.map((item) => ({ structure: 'L' as const, said: item.said })),
    ];
    for (const line of input.scored) {
      positives[line.label] += 1;
      const found = new Set(
        learned.filter((item) => line.text.includes(item.said) || item.said.includes(line.text)).map((item) => item.structure),
      );
      for (const structure of ['S', 'I', 'L'] as const) {
        const expected = line.label === structure;
        if (expected && found.has(structure)) counts[structure].tp += 1;
        else if (expected) {
          counts[structure].fn += 1;
          misses.push(`missed ${structure}: ${line.text}`);
        } else if (found.has(structure)) {
          counts[structure].fp += 1;
          misses.push(`wrongly ${structure}: ${line.text}`);
        }
      }
    }
    // One episode per conversation and dated note, on the right day, with a title and a summary.
    episodes += 1;
    const day =
      /\d{4}-\d{2}-\d{2}/.exec(document.lines.join(' '))?.[0] ??
      (/21 November 2026/.test(document.lines[0]!) ? '2026-11-21' : document.at.slice(0, 10));
    if (structures.episode && structures.episode.date === day && structures.episode.title && structures.episode.summary) episodesRight += 1;
  }
  const figures = Object.fromEntries(
    (['S', 'I', 'L'] as const).map((structure) => {
      const { tp, fp, fn } = counts[structure];
      return [names[structure], { sentences: positives[structure], precision: tp / (tp + fp), recall: tp / (tp + fn) }];
    }),
  );
  return { figures, positives, counts, episodes, episodesRight, misses };
}

describe('learning briefing structures from notes, meetings and chats', () => {
  it('reaches the precision and recall floor for each structure', async () => {
    const tuned = await measure(corpus);
    const unseen = await measure(heldOut);
    const all = await measure([...corpus, ...heldOut]);
    for (const [name, result] of Object.entries({ tuned, unseen, all })) {
      console.log(
        name,
        JSON.stringify(
          {
            figures: result.figures,
            negatives: result.positives['-'],
            episodes: `${result.episodesRight}/${result.episodes}`,
            misses: result.misses,
          },
          null,
          1,
        ),
      );
    }
    for (const structure of ['S', 'I', 'L'] as const) expect(all.positives[structure]).toBeGreaterThanOrEqual(30);
    expect(all.positives['-']).toBeGreaterThanOrEqual(30);
    for (const figure of Object.values(all.figures)) {
      expect(figure.precision).toBeGreaterThanOrEqual(FLOOR);
      expect(figure.recall).toBeGreaterThanOrEqual(FLOOR);
    }
    expect(all.episodesRight).toBe(all.episodes);
  }, 120_000);
});

import { EMPTY_CONTEXT } from '@engram/protocol';
import { describe, expect, it } from 'vitest';
import type { MemoryRow } from '../store/memory-repository.js';
import { chooseContext, referenceNeighbours, renderContext } from './context-block.js';
import { memoryRow } from './memory-row.fixture.js';

/** The memories of one message of one source (`src_1`), the id giving their order in it. */
const row = (id: number, text: string, extra: Partial<MemoryRow> = {}): MemoryRow =>
  memoryRow(id, text, { source_id: 'src_1', message_index: id, ...extra });

describe('renderContext', () => {
  it('stamps each line with its source kind and its day written as memories write dates', () => {
    const block = renderContext([row(1, 'Tomas keeps bees.'), row(2, 'Tomas sold honey on 2 May 2023.', { date: '2023-05-02' })], true);
    expect(block).toBe('- Tomas keeps bees.  [conversation, 8 May 2023]\n- Tomas sold honey on 2 May 2023.  [conversation, 2 May 2023]');
    expect(renderContext([row(1, 'Tomas keeps bees.')], false)).toBe('- Tomas keeps bees.');
    expect(renderContext([], true)).toBe(EMPTY_CONTEXT);
  });

  it('writes a date said relative to the day it was said as said, anchored to that day', () => {
    const said = row(1, 'Tomas sold honey in the week of 1 May 2023.', { sentence_text: 'I sold honey last week.' });
    expect(renderContext([said], true)).toBe(
      '- Tomas sold honey in the week before 8 May 2023 (week of 1 May).  [conversation, 8 May 2023]',
    );
    const friday = row(2, 'On Friday 5 May 2023 Tomas sold honey.', { sentence_text: 'Last Friday I sold honey.' });
    expect(renderContext([friday], false)).toBe('- On the Friday before 8 May 2023 (5 May) Tomas sold honey.');
  });
});

describe('chooseContext', () => {
  const recalled = [
    { row: row(1, 'The blue jug is from Tomas’s aunt.', { message_index: 4, sentence_start: 0 }), score: 0.9 },
    { row: row(2, 'Tomas likes the yellow jug too.', { message_index: 7 }), score: 0.8 },
    { row: row(3, 'Tomas painted a bowl.', { message_index: 9 }), score: 0.7 },
    { row: row(4, 'Tomas baked bread.', { message_index: 11 }), score: 0.6 },
    // The next sentence of the best memory's message: it answers "What does the blue jug remind Tomas of?" without its words.
    { row: row(5, 'Tomas thinks of the sea when Tomas sees the jug.', { message_index: 4, sentence_start: 40 }), score: 0.2 },
    { row: row(6, 'Tomas bought the bowl at a fair.', { message_index: 9, sentence_start: 30 }), score: 0.1 },
  ];

  it('brings the other recalled memories of the two best ones’ messages in place of the weakest, best first', () => {
    expect(chooseContext(recalled, 4).map((item) => item.row.id)).toEqual([1, 2, 3, 5]);
    // The third best brings nothing of its message (6).
    expect(chooseContext(recalled, 5).map((item) => item.row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(chooseContext(recalled, 12).map((item) => item.row.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('follows the best memory with the memories of its message recall did not find, unscored', () => {
    // The store's memories of the two best memories' messages, in the order they were said.
    const said = [
      recalled[0]!.row,
      row(7, 'Tomas’s aunt glazed it in green.', { message_index: 4, sentence_start: 20 }),
      recalled[4]!.row,
      row(8, 'Tomas likes jugs in general.', { message_index: 7, sentence_start: 30 }),
    ];
    const chosen = chooseContext(recalled, 5, said);
    // 7 follows 1; 5 comes from recall as before; 8, of the second best's message, stays out.
    expect(chosen.map((item) => item.row.id)).toEqual([1, 7, 2, 3, 5]);
    expect(chosen[1]!.score).toBe(0);
    expect(chooseContext(recalled, 12, said).map((item) => item.row.id)).toEqual([1, 7, 2, 3, 4, 5, 6]);
  });

  it('keeps the ranking for a memory past the best two, and for memories of no message', () => {
    const unplaced = recalled.map((item) => ({ ...item, row: { ...item.row, message_index: null } }));
    expect(chooseContext(unplaced, 4).map((item) => item.row.id)).toEqual([1, 2, 3, 4]);
  });

  /** A memory of the message `index` of `src_1` whose sentence runs from `start` to `end`. */
  const said = (id: number, text: string, index: number, start: number, end: number, sentence = text) =>
    row(id, text, { message_index: index, sentence_start: start, sentence_end: end, sentence_text: sentence });

  it('brings the sentence a memory refers back to, and the one that refers back to it, in the order said', () => {
    const ranked = [
      { row: said(1, 'Ines baked bread.', 1, 0, 17), score: 0.9 },
      { row: said(2, 'Ines paints.', 2, 0, 12), score: 0.8 },
      // Past the best two, so no rule of the message brings its sentences: only the reference.
      { row: said(3, 'Ines said they are picky eaters.', 3, 40, 68, 'They are picky eaters.'), score: 0.7 },
      { row: said(4, 'Ines bought the blue kayak.', 4, 0, 23), score: 0.6 },
      { row: said(5, 'Ines swims.', 5, 0, 11), score: 0.5 },
      { row: said(6, 'Ines runs.', 6, 0, 10), score: 0.4 },
    ];
    const store = [
      said(7, 'Ines said the goats get hay and apple peels.', 3, 0, 39, 'The goats get hay and apple peels.'),
      said(8, 'Ines said it fits in the van.', 4, 24, 51, 'It fits in the van.'),
      // Not next to the memory, and not opening with a reference: neither is brought.
      said(9, 'Ines reads at night.', 4, 52, 72),
      said(10, 'Ines keeps goats.', 3, 69, 88),
    ];
    expect(chooseContext(ranked, 6, store).map((item) => item.row.id)).toEqual([1, 2, 7, 3, 4, 8]);
    expect(chooseContext(ranked, 12, store).map((item) => item.row.id)).toEqual([1, 2, 7, 3, 4, 8, 5, 6]);
    // Past the best WITH_THEIR_REFERENCE (4) a memory brings nothing.
    const late = [ranked[0]!, ranked[1]!, ranked[4]!, ranked[5]!, { row: said(11, 'Ines sews.', 11, 0, 10), score: 0.3 }, ranked[2]!];
    expect(chooseContext(late, 12, store).map((item) => item.row.id)).toEqual([1, 2, 5, 6, 11, 3]);
  });

  it('reads "this" and "that" as referring back only when they stand for a thing, not before a noun', () => {
    const first = said(1, 'Ines read a memoir by Ada Lin.', 1, 0, 30);
    const pronoun = said(2, 'Ines said this is a true story.', 1, 31, 54, 'This is a true story.');
    const determiner = said(3, 'This book reminds Ines of home.', 1, 31, 60);
    expect(referenceNeighbours(pronoun, [first, pronoun]).before.map((row) => row.id)).toEqual([1]);
    expect(referenceNeighbours(determiner, [first, determiner]).before).toEqual([]);
    // From the other side: the sentence after the memory's points back to it.
    expect(referenceNeighbours(first, [first, pronoun]).after.map((row) => row.id)).toEqual([2]);
    expect(referenceNeighbours(first, [first, determiner]).after).toEqual([]);
  });
});

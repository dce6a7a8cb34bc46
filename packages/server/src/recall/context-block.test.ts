import { EMPTY_CONTEXT } from '@engram/protocol';
import { describe, expect, it } from 'vitest';
import type { MemoryRow } from '../store/memory-repository.js';
import { chooseContext, renderContext } from './context-block.js';
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
    expect(renderContext([said], true)).toBe('- Tomas sold honey in the week before 8 May 2023.  [conversation, 8 May 2023]');
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
    { row: row(5, 'It reminds Tomas of the sea.', { message_index: 4, sentence_start: 40 }), score: 0.2 },
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
});

import { describe, expect, it } from 'vitest';
import type { MemoryRow } from '../store/memory-repository.js';
import { answerOffline } from './ask.js';

const row = (id: number, text: string, extra: Partial<MemoryRow> = {}): MemoryRow => ({
  id,
  source_id: `src_${id}`,
  source_kind: 'conversation',
  source_title: null,
  text,
  kind: 'detail',
  date: '2023-05-08',
  about: [],
  labels: {},
  status: 'current',
  sentence_text: text,
  message_index: 0,
  sentence_start: 0,
  sentence_end: text.length,
  created_at: new Date(0),
  updated_at: new Date(0),
  ...extra,
});

describe('answerOffline', () => {
  it('answers a "when" question with the date the best memory gives', () => {
    const recalled = [{ row: row(1, 'Caroline went to a support group on 7 May 2023.'), score: 0.8 }];
    const reply = answerOffline(recalled, false, 'When did Caroline go to the support group?');
    expect(reply.answer).toBe('7 May 2023: Caroline went to a support group on 7 May 2023.');
    expect(reply.clash).toBe(false);
  });

  it('answers from the best memory and one from another message scoring almost as well', () => {
    const recalled = [
      { row: row(1, 'Melanie painted a sunrise'), score: 0.8 },
      { row: row(2, 'Melanie painted a lake', { source_id: 'src_1' }), score: 0.78 },
      { row: row(3, 'Melanie painted a horse.'), score: 0.76 },
      { row: row(4, 'Melanie likes tea.'), score: 0.3 },
    ];
    const reply = answerOffline(recalled, false, 'What did Melanie paint?');
    expect(reply.answer).toBe('Melanie painted a sunrise. Melanie painted a horse.');
    expect(reply.message).toMatch(/2 memories/);
  });

  it('is null when nothing is known', () => {
    expect(answerOffline([], true, 'What is the capital of Peru?')).toMatchObject({ answer: null, clash: false });
  });

  it('reports a clash when current memories disagree', () => {
    const negated = answerOffline(
      [
        { row: row(1, 'Omar likes coffee.'), score: 0.8 },
        { row: row(2, 'Omar does not like coffee.'), score: 0.79 },
      ],
      false,
      'Does Omar like coffee?',
    );
    expect(negated.clash).toBe(true);
    expect(negated.answer).toBe('Omar likes coffee. Omar does not like coffee.');
    const slots = answerOffline(
      [
        { row: row(1, 'Omar lives in Lisbon.', { slot: 'omar|home' }), score: 0.8 },
        { row: row(2, 'Omar lives in Porto.', { slot: 'omar|home' }), score: 0.8 },
      ],
      false,
      'Where does Omar live?',
    );
    expect(slots.clash).toBe(true);
    const agreeing = answerOffline(
      [
        { row: row(1, 'Omar likes coffee.'), score: 0.8 },
        { row: row(2, 'Omar likes tea.'), score: 0.79 },
      ],
      false,
      'What does Omar like?',
    );
    expect(agreeing.clash).toBe(false);
  });
});

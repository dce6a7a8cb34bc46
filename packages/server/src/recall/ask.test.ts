import { describe, expect, it } from 'vitest';
import type { MemoryRow } from '../store/memory-repository.js';
import { answerOffline, newPart, shortAnswer } from './ask.js';

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
    expect(reply.answer).toBe('7 May 2023.');
    expect(reply.message).toMatch(/1 memory/);
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
    expect(reply.answer).toBe('A sunrise; a horse.');
    expect(reply.message).toMatch(/2 memories/);
  });

  it('gives the whole memory where it cannot be cut shorter', () => {
    const recalled = [
      { row: row(1, 'Melanie shared a photo of a bowl with a flower design.'), score: 0.8 },
      { row: row(2, 'Melanie painted a horse.'), score: 0.79 },
    ];
    const reply = answerOffline(recalled, false, 'What did Melanie paint?');
    expect(reply.answer).toBe('Melanie shared a photo of a bowl with a flower design. A horse.');
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

describe('short answers', () => {
  it('keeps what a memory says beyond the words of the question', () => {
    expect(newPart('What did Melanie paint?', 'Melanie painted a sunrise over the lake.')).toBe('a sunrise over the lake');
    expect(newPart("What is Caroline's favourite book?", "Caroline's favourite book is Becoming by Michelle Obama.")).toBe(
      'Becoming by Michelle Obama',
    );
    expect(newPart('What career is Caroline keen on?', 'Caroline is keen on counseling or working in mental health.')).toBe(
      'counseling or working in mental health',
    );
  });

  it('does not cut a memory that only shares the name, opens otherwise, or would leave nothing', () => {
    expect(newPart('What did Melanie paint?', 'Melanie shared a photo of a horse.')).toBeNull();
    expect(newPart('What did Melanie paint?', 'On 8 July 2023 Melanie painted a horse.')).toBeNull();
    expect(newPart('Did Melanie paint?', 'Melanie painted.')).toBeNull();
  });

  it('answers by the kind of question: a date, a number, a place', () => {
    expect(shortAnswer('When did Jon lose his job?', 'Jon lost his job as a banker on 19 January 2023.')).toBe('19 January 2023');
    expect(shortAnswer('How many children does Melanie have?', 'Melanie has three children and a dog.')).toBe('three children');
    expect(shortAnswer('How long have Mel and her husband been married?', 'Melanie has been married for 5 years.')).toBe('5 years');
    expect(shortAnswer('Where did Caroline move from?', 'Caroline moved from Sweden four years ago.')).toBe('Sweden');
    expect(shortAnswer('Where does Maria volunteer?', 'Maria volunteers at the homeless shelter on Fridays.')).toBe('the homeless shelter');
  });
});

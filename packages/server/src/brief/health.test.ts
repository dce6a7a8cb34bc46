import { describe, expect, it } from 'vitest';
import { localTime, markAnswer, questionOf, startOfLocalDay, writeQuestions } from './health.js';

describe('memory health questions', () => {
  it("asks who, when or where from the memory's own words", () => {
    expect(questionOf({ id: 1, text: 'Ana Lopes moved to Lisbon in March 2026.', about: ['Ana Lopes', 'Lisbon'] })).toEqual({
      question: 'Who moved to Lisbon in March 2026?',
      expected: 'Ana Lopes',
      memoryId: 1,
    });
    expect(questionOf({ id: 2, text: 'The user started the pottery course in June 2025.', about: [] })).toEqual({
      question: 'When: The user started the pottery course?',
      expected: 'June 2025',
      memoryId: 2,
    });
    expect(questionOf({ id: 3, text: 'The user keeps the spare keys at the Harbour Café.', about: [] })).toMatchObject({
      question: 'Where: The user keeps the spare keys?',
      expected: 'the Harbour Café',
    });
    expect(questionOf({ id: 4, text: 'The user likes tea.', about: [] })).toBeNull();
  });

  it('writes at most 20 questions, none twice', () => {
    const memories = Array.from({ length: 50 }, (_, index) => ({
      id: index,
      text: `The user visited museum number ${index} in May ${1990 + index}.`,
      about: [],
    }));
    const questions = writeQuestions(memories);
    expect(questions).toHaveLength(20);
    expect(new Set(questions.map((question) => question.question)).size).toBe(20);
    expect(writeQuestions([...memories.slice(0, 2), ...memories.slice(0, 2)])).toHaveLength(2);
  });

  it('marks right, partly and wrong by the share of expected words in the answer', () => {
    expect(markAnswer('Ana Lopes', 'Ana Lopes moved to Lisbon in March 2026.')).toBe('right');
    expect(markAnswer('March 2026', 'In March.')).toBe('partly');
    expect(markAnswer('March 2026', 'In June 2025.')).toBe('wrong');
    expect(markAnswer('the Harbour Café', 'At home.')).toBe('wrong');
    expect(markAnswer('Ana Lopes', null)).toBe('wrong');
  });
});

describe('the nightly schedule', () => {
  it('reads local days and times in a time zone', () => {
    const instant = new Date('2026-11-23T23:30:00Z');
    expect(localTime(instant, 'UTC')).toEqual({ day: '2026-11-23', time: '23:30' });
    expect(localTime(instant, 'Europe/Lisbon')).toEqual({ day: '2026-11-23', time: '23:30' });
    expect(localTime(instant, 'Asia/Tokyo')).toEqual({ day: '2026-11-24', time: '08:30' });
    expect(startOfLocalDay('2026-11-24', 'Asia/Tokyo').toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect(startOfLocalDay('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfLocalDay('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

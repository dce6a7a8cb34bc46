import { describe, expect, it } from 'vitest';
import { answerOffline, dietKept, namedAnswer, slotAsked, subjectAsked, typedAnswer } from './ask.js';
import { memoryRow as row } from './memory-row.fixture.js';

describe('the asked person’s memories answer', () => {
  it('reads a memory’s subject as the first name it is about', () => {
    const ofInes = subjectAsked('What does Ines grow on the balcony?');
    expect(ofInes(row(1, 'Ines grows basil.', { about: ['Ines'] }))).toBe(true);
    expect(ofInes(row(2, 'Ines Duarte grows basil.', { about: ['Ines Duarte'] }))).toBe(true);
    // Tomas's remark on Ines's basil is Tomas's memory.
    expect(ofInes(row(3, 'Tomas said Ines’s basil smells lovely.', { about: ['Tomas', 'Ines'] }))).toBe(false);
    expect(ofInes(row(4, 'The basil smells lovely.'))).toBe(false);
  });

  it('does not take the other person’s name for "who" when the best memory, of the asked person, names none', () => {
    const recalled = [
      { row: row(1, 'Ines and friends built the shed with a carpenter from the village.', { about: ['Ines'] }), score: 0.9 },
      { row: row(2, 'It took Ines and friends three weekends.', { about: ['Ines'] }), score: 0.7 },
      { row: row(3, 'It is lovely that Tomas and friends help each other out.', { about: ['Tomas'] }), score: 0.6 },
    ];
    const question = 'Who did Ines build the shed with?';
    // Tomas's memory names a person; the asked person's best memory answers instead.
    expect(typedAnswer(question, recalled[2]!.row.text)).toBe('Tomas');
    expect(answerOffline(recalled, false, question).answer).toBe('A carpenter from the village.');
    // When the best memory is not of the person asked about, the name further down still answers.
    const unnamed = recalled.map((item, index) => (index === 0 ? { ...item, row: { ...item.row, about: [] } } : item));
    expect(answerOffline(unnamed, false, question).answer).toBe('Tomas.');
  });

  it('lists only the things of the asked person’s memories', () => {
    const recalled = [
      { row: row(1, 'Ines spent a rainy week in Lisbon.', { about: ['Ines', 'Lisbon'] }), score: 0.8 },
      { row: row(2, 'Tomas said the trams in Madrid are the best.', { about: ['Tomas', 'Madrid'] }), score: 0.78 },
      { row: row(3, 'Ines had the best pastries of her life in Porto.', { about: ['Ines', 'Porto'] }), score: 0.5 },
    ];
    expect(answerOffline(recalled, false, 'Which cities has Ines visited?').answer).toBe('Lisbon, Porto.');
  });

  it('does not join the other person’s span to the asked person’s answer', () => {
    const recalled = [
      { row: row(1, 'Ines painted a harbour at dusk.', { about: ['Ines'] }), score: 0.8 },
      { row: row(2, 'Tomas painted a red barn.', { about: ['Tomas'] }), score: 0.78 },
      { row: row(3, 'Ines painted a lighthouse in the fog.', { about: ['Ines'] }), score: 0.76 },
    ];
    expect(answerOffline(recalled, false, 'What did Ines paint?').answer).toBe('A harbour at dusk; a lighthouse in the fog.');
    // A question naming no one is answered from every memory that bears on it.
    expect(answerOffline(recalled, false, 'What was painted?').answer).toBe('A harbour at dusk; a red barn.');
  });
});

describe('a name asked for is looked for further', () => {
  const recalled = [
    { row: row(1, 'Ines shared a photo of a pier with boats at sunset.', { about: ['Ines'] }), score: 0.8 },
    { row: row(2, 'Ines shared a photo of gulls over the water.', { about: ['Ines'] }), score: 0.78 },
    { row: row(3, 'The light there was golden.', { about: ['Ines'] }), score: 0.7 },
    { row: row(4, 'Ines took that photo on a trip to Porto in spring.', { about: ['Ines', 'Porto'] }), score: 0.6 },
    { row: row(5, 'Ines also went to Braga.', { about: ['Ines', 'Braga'] }), score: 0.5 },
  ];

  it('answers "where" with a named place from the fourth or fifth memory when none nearer gives one', () => {
    expect(namedAnswer('Where did Ines take the photo of the pier?', recalled[3]!.row.text)).toBe('Porto');
    expect(answerOffline(recalled, false, 'Where did Ines take the photo of the pier?').answer).toBe('Porto.');
    // Not past the fifth.
    const further = [
      ...recalled.slice(0, 3),
      { row: row(6, 'The gulls were loud.', { about: ['Ines'] }), score: 0.66 },
      { row: row(7, 'The boats were blue.', { about: ['Ines'] }), score: 0.65 },
      ...recalled.slice(3),
    ];
    expect(answerOffline(further, false, 'Where did Ines take the photo of the pier?').answer).not.toMatch(/Porto|Braga/);
  });

  it('does not look further for a phrase naming the asked noun, which is often of the wrong kind', () => {
    const memories = [
      { row: row(1, 'Ines keeps the same routine every morning.', { about: ['Ines'] }), score: 0.8 },
      { row: row(2, 'Ines likes the quiet.', { about: ['Ines'] }), score: 0.78 },
      { row: row(3, 'Ines said it helps.', { about: ['Ines'] }), score: 0.7 },
      { row: row(4, 'Ines has always had good habits.', { about: ['Ines'] }), score: 0.6 },
    ];
    const question = 'What habits does Ines keep?';
    expect(typedAnswer(question, memories[3]!.row.text)).toBe('good habits');
    expect(namedAnswer(question, memories[3]!.row.text)).toBeNull();
    expect(answerOffline(memories, false, question).answer).not.toMatch(/good habits/i);
  });
});

describe('a slot asked is answered by its latest memory', () => {
  it('reads which slot a question asks the current value of, and whose', () => {
    expect(slotAsked('Where do I work?')).toEqual({ attribute: 'work', subject: 'the user' });
    expect(slotAsked('What is my job?')).toEqual({ attribute: 'work', subject: 'the user' });
    expect(slotAsked('Which city does Ines Duarte live in?')).toEqual({ attribute: 'home', subject: 'ines duarte' });
    expect(slotAsked('Where does she work now?')).toEqual({ attribute: 'work', subject: null });
    expect(slotAsked('Where am I working these days?')).toEqual({ attribute: 'work', subject: 'the user' });
    expect(slotAsked('What am I working on?')).toBeNull();
    // Another time, someone named by a relation, or the slot's word not asked for.
    expect(slotAsked('Where did I work before?')).toBeNull();
    expect(slotAsked("What is my partner's job?")).toBeNull();
    expect(slotAsked('What do I take home each month?')).toBeNull();
    expect(slotAsked('What is my work schedule?')).toBeNull();
    expect(slotAsked('How is work going?')).toBeNull();
  });

  it('answers from the memory latest said in the slot, not the best ranked one', () => {
    const talk = [
      'The user said work is stressful.',
      'The user works late most days.',
      'Work drinks are on Fridays.',
      'The user likes the work.',
    ];
    const recalled = [
      { row: row(1, 'Big project at work: the user is designing the annual report.', { date: '2025-08-01' }), score: 0.9 },
      ...talk.map((text, index) => ({ row: row(10 + index, text, { date: '2025-08-01' }), score: 0.8 - index * 0.05 })),
      { row: row(2, 'The user started at Quillmoor Trust on 14 April 2025.', { slot: 'the user|work', date: '2025-04-14' }), score: 0.5 },
      { row: row(3, 'Ines is a designer at Halden Print.', { slot: 'ines|work', date: '2025-09-01' }), score: 0.45 },
    ];
    expect(answerOffline(recalled, false, 'Where do I work?').answer).toBe('Quillmoor Trust.');
    // Without the slot the best memory's span answers.
    const unslotted = recalled.map((item) => ({ ...item, row: { ...item.row, slot: null } }));
    expect(answerOffline(unslotted, false, 'Where do I work?').answer).not.toContain('Quillmoor');
    // The later of two memories in the slot answers; another person's slot does not.
    const later = [
      ...recalled,
      { row: row(4, 'The user moved on to a job at Brightwell.', { slot: 'the user|work', date: '2025-10-02' }), score: 0.3 },
    ];
    expect(answerOffline(later, false, 'Where do I work?').answer).toBe('Brightwell.');
    expect(answerOffline(later, false, 'Where does Ines work?').answer).toBe('Halden Print.');
  });
  it('answers a diet asked with the one kept, not the one left', () => {
    expect(dietKept('The user is pescatarian now, not vegan.')).toBe('pescatarian');
    expect(dietKept('The user is no longer vegetarian but keto.')).toBe('keto');
    expect(dietKept('The user loves rowing.')).toBeNull();
    const recalled = [
      { row: row(1, 'The user made a big pot of lentil soup.'), score: 0.9 },
      { row: row(2, 'The user is pescatarian now, not vegan.', { slot: 'the user|diet', date: '2025-06-01' }), score: 0.4 },
    ];
    expect(answerOffline(recalled, false, 'What is my diet?').answer).toBe('Pescatarian.');
  });
});

describe('a yearly day', () => {
  it('answers "when" with the day of a yearly thing written without a year', () => {
    const recalled = [{ row: row(1, "The user's birthday is on 14 March."), score: 0.8 }];
    expect(answerOffline(recalled, false, 'When is my birthday?').answer).toBe('On 14 March.');
  });
});

import { describe, expect, it } from 'vitest';
import { answerOffline, asksName, asksSeveral, shortAnswer, typedAnswer } from './ask.js';
import { memoryRow as row } from './memory-row.fixture.js';

describe('questions asking for several things', () => {
  it('reads a plural asked-for noun, "what are / have", "some" or "ways" as asking for several', () => {
    expect(asksSeveral('What activities does Ines enjoy?')).toBe(true);
    expect(asksSeveral('Which cities has Ines visited?')).toBe(true);
    expect(asksSeveral('What are the names of Ines’s goats?')).toBe(true);
    expect(asksSeveral('What has Ines knitted?')).toBe(true);
    expect(asksSeveral('What are some ways Ines relaxes?')).toBe(true);
    expect(asksSeveral('What activity does Ines enjoy?')).toBe(false);
    expect(asksSeveral('Which city did Ines visit?')).toBe(false);
    expect(asksSeveral('What class does Ines teach?')).toBe(false);
  });

  it('lists the answers of the kind asked that several memories give, each once (rule "a list from the memories that each give one")', () => {
    const recalled = [
      { row: row(1, 'Ines spent a rainy week in Lisbon.'), score: 0.8 },
      { row: row(2, 'Ines liked the trams in Lisbon best.'), score: 0.78 },
      { row: row(3, 'Ines had the best pastries of her life in Porto.'), score: 0.5 },
      { row: row(4, 'Ines likes her tea strong.'), score: 0.4 },
    ];
    const reply = answerOffline(recalled, false, 'Which cities has Ines visited?');
    // The third memory scores well below the best: only the list reaches it.
    expect(reply.answer).toBe('Lisbon, Porto.');
    expect(reply.message).toMatch(/3 memories/);
    // One city asked for: the best memory's, not repeated by the second (rule "an answer is not repeated").
    expect(answerOffline(recalled, false, 'Which city did Ines visit?').answer).toBe('Lisbon.');
  });

  it('answers a question asking for several things from up to four memories that bear on it', () => {
    const recalled = [
      { row: row(1, 'Ines knitted a scarf'), score: 0.8 },
      { row: row(2, 'Ines knitted a tea cosy'), score: 0.79 },
      { row: row(3, 'Ines knitted a hat'), score: 0.78 },
      { row: row(4, 'Ines knitted a blanket'), score: 0.77 },
      { row: row(5, 'Ines knitted a sock'), score: 0.76 },
    ];
    const several = answerOffline(recalled, false, 'What has Ines knitted?');
    expect(several.answer).toBe('A scarf; a tea cosy; a hat; a blanket.');
    expect(several.message).toMatch(/4 memories/);
    // One thing asked for: the best two memories, as before.
    expect(answerOffline(recalled, false, 'What did Ines knit?').answer).toBe('A scarf; a tea cosy.');
  });
});

describe('questions asking for a name', () => {
  it('answers "what is the name of…" with the names a memory gives, as "who" (rule "a name asked for is answered with a name")', () => {
    expect(asksName('What is the name of Ines’s goat?')).toBe(true);
    expect(asksName('What are the names of her cats?')).toBe(true);
    expect(asksName('What did Ines name her boat?')).toBe(true);
    expect(asksName('Which city did Ines visit?')).toBe(false);
    const memory = 'Ines and the kids still miss old Pepper every day.';
    expect(typedAnswer('What was the name of the dog Ines had to say goodbye to?', memory)).toBe('Pepper');
    expect(shortAnswer('What was the name of the dog Ines had to say goodbye to?', memory)).toBe('Pepper');
    const recalled = [
      { row: row(1, 'Ines got a second cat, Juniper.'), score: 0.8 },
      { row: row(2, 'Ines says Mochi sleeps all day.'), score: 0.7 },
    ];
    expect(answerOffline(recalled, false, 'What are the names of Ines’s cats?').answer).toBe('Juniper, Mochi.');
  });
});

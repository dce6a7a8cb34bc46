import { describe, expect, it } from 'vitest';
import { leadingPronoun, referentOf } from './coreference.js';
import { learnFromMessages, learnFromText, readMessages } from './index.js';
import type { LearnedFact } from './types.js';

const writtenAt = new Date('2026-11-25T09:00:00Z');
const at = '2026-11-22T15:00:00Z';
/** What is learned when the user tells an assistant `content`. */
const told = (content: string) =>
  learnFromMessages(
    readMessages([
      { role: 'user', at, content },
      { role: 'assistant', at, content: 'Noted!' },
    ]),
    { writtenAt },
  );
const fact = (text: string, about: string[] = [], nameTypes: ('person' | 'place')[] = []): LearnedFact => ({
  text,
  kind: 'detail',
  about,
  nameTypes,
  date: '2026-11-22',
  sentence: { text, messageIndex: 0, start: 0, end: text.length },
});

describe('resolveLeadingPronouns', () => {
  it('names the one person of the sentence before for an opening "she" or "he"', () => {
    const facts = told('My sister Ilse is a dentist. She lives in Graz with her two kids.');
    expect(facts.map((learned) => learned.text)).toEqual(["The user's sister Ilse is a dentist.", 'Ilse lives in Graz with her two kids.']);
    expect(facts[1]!.about).toContain('Ilse');
    expect(facts[1]!.reported).toBeUndefined();
  });

  it('names the speaker\'s relation, and reads "she\'s" and "he\'ll"', () => {
    expect(told('My grandpa turned 90 last week. He still drives to the market.').map((learned) => learned.text)[1]).toBe(
      "The user's grandpa still drives to the market.",
    );
    expect(told("My friend Odile is a chef. She's been cooking since school.").map((learned) => learned.text)[1]).toBe(
      'Odile has been cooking since school.',
    );
    expect(texts(learnFromText("My uncle bought a boat. He'll sail it to Crete.", { writtenAt }))).toEqual([
      "The user's uncle bought a boat.",
      "The user's uncle will sail it to Crete.",
    ]);
  });

  it('names the person of an opening "her" or "his", but not of "her and I"', () => {
    expect(told('My sister Ilse is a dentist. Her kids are 5 and 7.').map((learned) => learned.text)[1]).toBe("Ilse's kids are 5 and 7.");
    expect(told('My grandpa turned 90. His garden is huge.').map((learned) => learned.text)[1]).toBe(
      "The user's grandpa's garden is huge.",
    );
    expect(told('My brother Dev got a job. Her boss is nice.').map((learned) => learned.text)[1]).toBe('The user said her boss is nice.');
    expect(told('My friend Odile is a chef. Her and I went to Lyon.').map((learned) => learned.text)[1]).toBe(
      'Her and the user went to Lyon.',
    );
  });

  it('leaves the pronoun when the sentence before names two people or one of the other gender', () => {
    expect(told('I met Sara and Lukas at the bar. He was funny.').map((learned) => learned.text)[1]).toBe('The user said he was funny.');
    expect(told('My brother Dev got a job in Pune. She is thrilled.').map((learned) => learned.text)[1]).toBe(
      'The user said she is thrilled.',
    );
  });
});

const texts = (facts: LearnedFact[]) => facts.map((learned) => learned.text);

describe('referentOf and leadingPronoun', () => {
  const noGender = () => null;
  it('finds the one person other than the speaker', () => {
    expect(referentOf(fact('Priya met Wendell.', ['Priya', 'Wendell'], ['person', 'person']), 'Priya', noGender)?.text).toBe('Wendell');
    expect(referentOf(fact('Priya met Wendell in Oslo.', ['Wendell', 'Oslo'], ['person', 'place']), 'Priya', noGender)?.text).toBe(
      'Wendell',
    );
    expect(referentOf(fact('Priya met Wendell and Ivo.', ['Wendell', 'Ivo'], ['person', 'person']), 'Priya', noGender)).toBeNull();
    expect(referentOf(fact("Priya's aunt moved to Oslo."), 'Priya', noGender)).toEqual({
      text: "Priya's aunt",
      name: null,
      gender: 'female',
    });
    expect(referentOf(fact('Priya moved to Oslo.', ['Oslo'], ['place']), 'Priya', noGender)).toBeNull();
  });

  it('reads the pronoun, after "<speaker> said" too, with its contraction spelt out', () => {
    expect(leadingPronoun('Priya said she loves rowing.', 'Priya')).toEqual({ gender: 'female', rest: 'loves rowing.', possessive: false });
    expect(leadingPronoun("He's moving to Oslo.", 'Priya')).toEqual({ gender: 'male', rest: 'is moving to Oslo.', possessive: false });
    expect(leadingPronoun("She's got a kayak.", 'Priya')).toEqual({ gender: 'female', rest: 'has got a kayak.', possessive: false });
    expect(leadingPronoun('They love rowing.', 'Priya')).toBeNull();
    expect(leadingPronoun('Shelby loves rowing.', 'Priya')).toBeNull();
  });
});

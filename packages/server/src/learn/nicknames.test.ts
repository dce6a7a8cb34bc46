import { describe, expect, it } from 'vitest';
import { readMessages } from '../text/messages.js';
import { learnFromMessages } from './learn.js';
import { nicknameIn, nicknameSaid } from './nicknames.js';

describe('nicknames', () => {
  it('finds a shortening of the other person’s first name where it addresses them', () => {
    expect(nicknameIn('Hey Mel, the kiln is finally fixed!', 'Melissa')).toBe('Mel');
    expect(nicknameIn('Mel, you have to see this.', 'Melissa')).toBe('Mel');
    expect(nicknameIn('Thanks, Jo!', 'Josephine')).toBe('Jo');
    expect(nicknameIn('That was the best gig of the year, Mel!', 'Melissa')).toBe('Mel');
    expect(nicknameIn('Hi Bea.', 'Beatrice Okafor')).toBe('Bea');
  });

  it('leaves the full name, a name said in passing, another name and a word that is no name', () => {
    expect(nicknameIn('Hey Melissa, the kiln is fixed!', 'Melissa')).toBeNull();
    expect(nicknameIn('I told Mel about the kiln.', 'Melissa')).toBeNull();
    expect(nicknameIn('Hey Sam, the kiln is fixed!', 'Melissa')).toBeNull();
    // "Me" and "No" open the names, but the lexicon knows them as a pronoun and an answer.
    expect(nicknameIn('Me, too!', 'Melissa')).toBeNull();
    expect(nicknameIn('No, not yet.', 'Nora')).toBeNull();
    expect(nicknameIn('Hey mel, lower case is no name.', 'Melissa')).toBeNull();
  });

  it('gives the sentence that used it', () => {
    const text = 'I finished the mural. Thanks, Jo! It took a week.';
    const said = nicknameSaid(text, 'Josephine')!;
    expect(said.nickname).toBe('Jo');
    expect(text.slice(said.start, said.end)).toBe('Thanks, Jo!');
  });

  it('learns the nickname once a conversation between two people, from the first message using it', () => {
    const at = '2026-03-02T10:00:00Z';
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Tomasz', content: 'Hey Bea, the new hives arrived today.', at },
        { role: 'user', name: 'Beatrice', content: 'Lovely! Are the bees settled?', at },
        { role: 'user', name: 'Tomasz', content: 'Not yet, Bea. They need a week.', at },
      ]),
      { writtenAt: new Date(at) },
    );
    const nicknames = facts.filter((fact) => fact.text.includes('nickname'));
    expect(nicknames.map((fact) => fact.text)).toEqual(['Tomasz calls Beatrice by the nickname Bea.']);
    expect(nicknames[0]!.sentence).toMatchObject({ messageIndex: 0, text: 'Hey Bea, the new hives arrived today.' });
    expect(nicknames[0]!.about).toEqual(['Tomasz', 'Beatrice']);
  });

  it('learns none where more than two people talk (whom a name addresses is not known)', () => {
    const at = '2026-03-02T10:00:00Z';
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Tomasz', content: 'Hey Bea, the new hives arrived today.', at },
        { role: 'user', name: 'Beatrice', content: 'Lovely!', at },
        { role: 'user', name: 'Ines', content: 'Can I come and see them?', at },
      ]),
      { writtenAt: new Date(at) },
    );
    expect(facts.some((fact) => fact.text.includes('nickname'))).toBe(false);
  });
});

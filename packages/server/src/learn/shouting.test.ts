import { describe, expect, it } from 'vitest';
import { learnFromMessages, readMessages } from './index.js';
import { unshout } from './shouting.js';

const at = '2026-11-22T15:00:00Z';
const writtenAt = new Date('2026-11-25T09:00:00Z');
const told = (content: string) => learnFromMessages(readMessages([{ role: 'user', at, content }]), { writtenAt });

describe('unshout', () => {
  it('writes three or more words in capitals in ordinary case, keeping the length', () => {
    const text = 'OMG I GOT THE JOB!!! So happy.';
    expect(unshout(text)).toBe('Omg I got the job!!! So happy.');
    expect(unshout(text)).toHaveLength(text.length);
  });

  it('keeps "I", words with digits, months, weekdays and the names it knows capitalised', () => {
    expect(unshout("I'M FLYING TO PARIS ON FRIDAY IN JUNE")).toBe("I'm flying to Paris on Friday in June");
    expect(unshout('I SENT MY FIRST V4 YESTERDAY')).toBe('I sent my first V4 yesterday');
    expect(unshout('I MAY GO')).toBe('I may go');
  });

  it('capitalises a word the same text writes capitalised elsewhere', () => {
    expect(unshout('I start at Quillmoor soon. QUILLMOOR HIRED ME!')).toBe('I start at Quillmoor soon. Quillmoor hired me!');
  });

  it('leaves one or two words in capitals, and ordinary text, as they are', () => {
    for (const text of ['I work at NASA now.', 'BUT my coworker came too.', 'NO WAY, she said.', 'Ilse Lund moved to Graz.']) {
      expect(unshout(text)).toBe(text);
    }
  });
});

describe('a message in capitals', () => {
  it('is learned in ordinary case, with no run of capitals taken for a name', () => {
    const [fact] = told('OMG I GOT THE JOB AT QUILLMOOR');
    expect(fact?.text).toBe('The user got the job at quillmoor.');
    expect(fact?.about).toEqual([]);
    expect(fact?.sentence.text).toBe('OMG I GOT THE JOB AT QUILLMOOR');
  });

  it('keeps the names it can tell and reads its dates', () => {
    const [fact] = told('MY SISTER ANNA IS MOVING TO BERLIN IN MARCH');
    expect(fact?.text).toBe("The user's sister Anna is moving to Berlin in March 2027.");
    expect(fact?.about).toEqual(['Anna', 'Berlin']);
  });
});

import { describe, expect, it } from 'vitest';
import { learnFromMessages } from './learn.js';
import { refersBack } from './refers-back.js';
import type { ReadMessage } from './types.js';

const at = new Date('2026-03-02T10:00:00Z');
const message = (index: number, name: string, text: string): ReadMessage => ({ index, role: 'user', name, text, at });

describe('refersBack', () => {
  it('tells a fact leaning on a pronoun from one naming what it is about', () => {
    expect(refersBack('Tomasz said it leaks a little.')).toBe(true);
    expect(refersBack('They were so kind to Priya.')).toBe(true);
    expect(refersBack('Priya said she had a rough winter.')).toBe(true);
    expect(refersBack('Tomasz bought new paddles.')).toBe(false);
    // "their" is the learner's own word for a speaker's "my".
    expect(refersBack('Tomasz lost their keys.')).toBe(false);
  });

  it("gives a later fact of a reply that refers back the message it answers as its message's words", () => {
    const facts = learnFromMessages(
      [
        message(0, 'Priya', 'I finally bought a wooden rowboat at the harbour auction.'),
        message(1, 'Tomasz', 'I painted my garage door green. It sounds like a lovely boat though.'),
      ],
      { writtenAt: at },
    );
    const reply = facts.filter((fact) => fact.sentence.messageIndex === 1);
    const [opening, later] = reply;
    expect(opening?.text).toMatch(/garage door/);
    expect(later?.text).toMatch(/lovely boat/);
    // The later fact leans on "it": what it answers is indexed with its own message, not below it.
    expect(later?.context).toContain('rowboat');
    expect(later?.before).toBeUndefined();
  });

  it('leaves a later fact that names what it is about with the message it answers at the lowest weight', () => {
    const facts = learnFromMessages(
      [
        message(0, 'Priya', 'I finally bought a wooden rowboat at the harbour auction.'),
        message(1, 'Tomasz', 'I painted my garage door green. My sister repaired the fence.'),
      ],
      { writtenAt: at },
    );
    const later = facts.filter((fact) => fact.sentence.messageIndex === 1)[1];
    expect(later?.text).toMatch(/fence/);
    expect(later?.context).not.toContain('rowboat');
    expect(later?.before).toContain('rowboat');
  });
});

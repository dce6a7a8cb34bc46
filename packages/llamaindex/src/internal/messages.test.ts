import { describe, expect, it } from 'vitest';
import { latestUserText, messageKey, savedMessages } from './messages.js';

describe('message helpers', () => {
  it("finds the latest user message's text, from a string or parts", () => {
    expect(
      latestUserText([
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second' }] },
      ]),
    ).toBe('second');
    expect(latestUserText([{ role: 'system', content: 'rules' }])).toBe('');
  });

  it("saves the user's and the assistant's words only, with their times", () => {
    const saved = savedMessages([
      { id: '1', role: 'system', content: 'You are kind.' },
      { id: '2', role: 'user', content: 'I knit.', createdAt: new Date('2026-05-01T10:00:00Z') },
      { id: '3', role: 'memory', content: 'internal' },
      { id: '4', role: 'assistant', content: '  ' },
      { id: '5', role: 'assistant', content: 'Lovely.', createdAt: '2026-05-01T10:00:05.000Z' as unknown as Date },
    ]);
    expect(saved).toEqual([
      { role: 'user', content: 'I knit.', at: '2026-05-01T10:00:00.000Z' },
      { role: 'assistant', content: 'Lovely.', at: '2026-05-01T10:00:05.000Z' },
    ]);
  });

  it('keys a message by its id, or by its role and words when it has none', () => {
    expect(messageKey({ id: 'a', role: 'user', content: 'x' })).not.toBe(messageKey({ id: 'b', role: 'user', content: 'x' }));
    expect(messageKey({ role: 'user', content: 'x' })).toBe(messageKey({ role: 'user', content: ' x ' }));
  });
});

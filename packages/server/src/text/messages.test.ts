import { describe, expect, it } from 'vitest';
import { readMessages } from './messages.js';

describe('readMessages', () => {
  it('reads strings, blocks and parts, and keeps only text', () => {
    const read = readMessages([
      { role: 'user', content: 'plain text', name: 'Priya', at: '2026-11-22T10:00:00Z' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', source: { data: 'xx' } },
          { type: 'text', text: 'second' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a part' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
    ]);
    expect(read).toEqual([
      { index: 0, role: 'user', name: 'Priya', at: new Date('2026-11-22T10:00:00Z'), text: 'plain text' },
      { index: 1, role: 'assistant', name: null, at: null, text: 'first\nsecond' },
      { index: 2, role: 'user', name: null, at: null, text: 'a part' },
    ]);
  });

  it('drops system and developer messages but keeps the original indexes', () => {
    const read = readMessages([
      { role: 'system', content: 'You are helpful.' },
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'I love tea.' },
    ]);
    expect(read.map((message) => [message.index, message.role, message.text])).toEqual([[2, 'user', 'I love tea.']]);
  });

  it('keeps a tool message only when it has plain text', () => {
    const read = readMessages([
      { role: 'tool', content: '{"temperature": 21}' },
      { role: 'tool', content: 'The flight to Lisbon leaves at 9:40.' },
      { role: 'tool', content: [{ type: 'image', url: 'x' }] },
    ]);
    expect(read).toEqual([{ index: 1, role: 'tool', name: null, at: null, text: 'The flight to Lisbon leaves at 9:40.' }]);
  });

  it('treats a blank name as no name and an unreadable time as none', () => {
    const [message] = readMessages([{ role: 'user', content: 'hi', name: '  ', at: 'not a date' }]);
    expect(message?.name).toBeNull();
    expect(message?.at).toBeNull();
  });
});

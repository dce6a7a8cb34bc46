import { describe, expect, it } from 'vitest';
import { chatTurnKey, chunkCollector, isNewTurn, replyOfCompletion, withSystemMessage } from './chat-completions.js';

describe('chat completion helpers', () => {
  it('puts the memory after the leading system and developer messages', () => {
    const messages = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'system', content: 'Use metric units.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'A late note.' },
    ];
    expect(withSystemMessage(messages, 'MEMORY').map((message) => message.content)).toEqual([
      'Be brief.',
      'Use metric units.',
      'MEMORY',
      'Hi',
      'A late note.',
    ]);
  });

  it('tells a new turn from tool results, and keys both to the same turn', () => {
    const asked = [{ role: 'user', content: 'Book it' }];
    const continued = [...asked, { role: 'assistant', content: null }, { role: 'tool', content: '{}' }];
    expect(isNewTurn(asked)).toBe(true);
    expect(isNewTurn(continued)).toBe(false);
    expect(chatTurnKey('s', continued, 0)).toBe(chatTurnKey('s', asked, 0));
    expect(chatTurnKey('other', asked, 0)).not.toBe(chatTurnKey('s', asked, 0));
  });

  it('ends a turn on a reply, not on a call of tools', () => {
    expect(replyOfCompletion({ choices: [{ index: 0, message: { content: ' Done. ' }, finish_reason: 'stop' }] })).toEqual({
      text: 'Done.',
      endsTurn: true,
    });
    expect(replyOfCompletion({ choices: [{ index: 0, message: { content: null }, finish_reason: 'tool_calls' }] })).toEqual({
      text: '',
      endsTurn: false,
    });
  });

  it('puts the first choice of a stream together and ignores the others', () => {
    const collector = chunkCollector();
    collector.add({
      choices: [
        { index: 0, delta: { content: 'Hel' } },
        { index: 1, delta: { content: 'XX' } },
      ],
    });
    collector.add({ choices: [{ index: 0, delta: { content: 'lo.' }, finish_reason: 'stop' }] });
    expect(collector.result()).toEqual({ text: 'Hello.', endsTurn: true });
    expect(chunkCollector().result()).toEqual({ text: '', endsTurn: false });
  });
});

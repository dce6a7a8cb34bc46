import { describe, expect, it } from 'vitest';
import { call, freshSpace, saveAndLearn } from './helpers.js';

describe('context block', () => {
  it('brings the rest of the best memory’s message, of the kind asked for', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        {
          role: 'user',
          name: 'Oskar',
          content: 'I finally restored the old rowing boat. The cedar planks came from a yard in Bergen.',
          at: '2024-03-04T10:00:00Z',
        },
        { role: 'user', name: 'Lena', content: 'I sketched a rowing boat by the pier.', at: '2024-03-04T10:01:00Z' },
      ],
    });
    const reply = await call('POST', '/v1/context', { body: { question: 'Who restored a rowing boat?', space } });
    const lines = reply.body.context.split('\n');
    expect(lines[0]).toMatch(/^- Oskar finally restored the old rowing boat\./);
    expect(reply.body.context).toMatch(/cedar planks came from a yard in Bergen/);
    expect(reply.body.memories.map((memory: { text: string }) => memory.text)).toHaveLength(lines.length);
  });

  it('brings only memories of the kind asked for from the best memory’s message', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        {
          role: 'user',
          name: 'Oskar',
          content: 'I love rowing boats. The cedar planks came from a yard in Bergen.',
          at: '2024-03-04T10:00:00Z',
        },
      ],
    });
    const all = await call('POST', '/v1/context', { body: { question: 'What does Oskar love?', space } });
    expect(all.body.context).toMatch(/Oskar loves rowing boats[\s\S]*cedar planks/);
    const preferences = await call('POST', '/v1/context', { body: { question: 'What does Oskar love?', kind: 'pref', space } });
    expect(preferences.body.memories.map((memory: { kind: string }) => memory.kind)).toEqual(['pref']);
  });

  it('writes a date said relative to its day as said, anchored to that day', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [{ role: 'user', name: 'Oskar', content: 'Last Friday I varnished the rowing boat.', at: '2024-03-04T10:00:00Z' }],
    });
    const reply = await call('POST', '/v1/context', { body: { question: 'When did Oskar varnish the boat?', space } });
    expect(reply.body.context).toMatch(/the Friday before 4 March 2024 \(1 March\)/);
    // The memory itself keeps the day the learner wrote.
    expect(reply.body.memories[0].text).toMatch(/Friday 1 March 2024/);
  });
});

import { describe, expect, it } from 'vitest';
import { call, freshSpace, waitLearned } from './helpers.js';

// The curl session of the README, so that what it shows stays true.
describe('the README session', () => {
  it('saves a conversation, waits on its source, and answers from it', async () => {
    const space = freshSpace('alice');
    const saved = await call('POST', '/v1/memories', {
      space,
      body: {
        messages: [
          { role: 'user', name: 'Alice', content: 'I moved to Berlin last month for a job at a bakery.', at: '2026-11-22T10:00:00Z' },
          { role: 'assistant', content: 'Congratulations on the move!' },
          { role: 'user', name: 'Alice', content: 'My sister Jo is visiting next week.', at: '2026-11-22T10:01:00Z' },
        ],
      },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.source.status).toBe('queued');
    const source = await waitLearned(space, saved.body.source.id);
    expect(source.memories).toBe(2);

    const ask = await call('POST', '/v1/ask', { space, body: { question: 'Where did Alice move?' } });
    expect(ask.body.answer).toBe('Berlin.');
    expect(ask.body.memories[0].text).toBe('Alice moved to Berlin in October 2026 for a job at a bakery.');

    const context = await call('POST', '/v1/context', { space, body: { question: 'Who is visiting Alice?' } });
    expect(context.body.context.split('\n')[0]).toBe(
      "- Alice's sister Jo is visiting in the week after 22 November 2026 (week of 23 November).  [conversation, 22 November 2026]",
    );
    expect(context.body.empty).toBe(false);
  });
});

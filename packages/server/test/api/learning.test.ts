import { describe, expect, it } from 'vitest';
import { call, freshSpace, saveAndLearn } from './helpers.js';

async function memoriesOf(space: string): Promise<{ id: number; text: string; status: string }[]> {
  return (await call('GET', '/v1/memories?limit=200', { space })).body.memories;
}

describe('learning: merging and updating', () => {
  it('stores a fact said twice once, and links the second source to it', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Priya works as a marine biologist in Cork.' });
    const second = await saveAndLearn(space, { text: 'Priya works as a marine biologist in Cork.' });
    const memories = await memoriesOf(space);
    expect(memories.filter((memory) => /marine biologist/.test(memory.text))).toHaveLength(1);
    const detail = await call('GET', `/v1/memories/${memories[0]?.id}`, { space });
    expect(detail.body.history.map((event: { event: string }) => event.event)).toEqual(['learned', 'linked']);
    expect(detail.body.history[1].source_id).toBe(second.id);
  });

  it('replaces what a later fact changes, keeps both in the history, and recalls the current one', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { messages: [{ role: 'user', name: 'Omar', content: 'I live in Lisbon.', at: '2026-03-01T10:00:00Z' }] });
    const [lisbon] = await memoriesOf(space);
    if (lisbon === undefined) throw new Error('no memory learned');
    expect(lisbon.text).toBe('Omar lives in Lisbon.');
    await saveAndLearn(space, {
      messages: [{ role: 'user', name: 'Omar', content: 'I moved to Berlin last month.', at: '2026-06-10T10:00:00Z' }],
    });

    const current = await memoriesOf(space);
    expect(current.map((memory) => memory.text)).toEqual(['Omar moved to Berlin in May 2026.']);
    const old = await call('GET', `/v1/memories/${lisbon.id}`, { space });
    expect(old.body.memory.status).toBe('replaced');
    expect(old.body.history.map((event: { event: string; memory_id?: number }) => [event.event, event.memory_id ?? null])).toEqual([
      ['learned', null],
      ['replaced', current[0]?.id],
    ]);
    const now = await call('GET', `/v1/memories/${current[0]?.id}`, { space });
    expect(now.body.history.map((event: { event: string }) => event.event)).toEqual(['learned', 'replaces']);
    expect(now.body.history[1].memory_id).toBe(lisbon.id);

    const found = await call('POST', '/v1/search', { body: { q: 'Where does Omar live?', space } });
    expect(found.body.memories.map((memory: { text: string }) => memory.text)).toEqual(['Omar moved to Berlin in May 2026.']);
    const asked = await call('POST', '/v1/ask', { body: { question: 'Where does Omar live?', space } });
    expect(asked.body.answer).toMatch(/Berlin/);
    expect(asked.body.answer).not.toMatch(/Lisbon/);
    expect(asked.body.clash).toBe(false);
  });

  it('within one source, a later fact replaces an earlier one of the same slot, never the other way', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'user', name: 'Omar', content: 'I live in Lisbon.', at: '2026-03-01T10:00:00Z' },
        { role: 'user', name: 'Omar', content: 'I moved to Berlin last week.', at: '2026-03-01T10:05:00Z' },
      ],
    });
    const current = await memoriesOf(space);
    expect(current.map((memory) => memory.text)).toEqual([expect.stringMatching(/^Omar moved to Berlin/)]);
    const found = await call('POST', '/v1/search', { body: { q: 'Where does Omar live?', space } });
    expect(found.body.memories.map((memory: { text: string }) => memory.text)).toEqual([current[0]?.text]);
  });

  it('keeps one diet: a later one replaces the earlier, and "What is my diet?" is answered with it', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { messages: [{ role: 'user', content: "I'm vegan, have been for years.", at: '2026-01-10T10:00:00Z' }] });
    await saveAndLearn(space, {
      messages: [{ role: 'user', content: 'Big change: I went pescatarian in May.', at: '2026-06-10T10:00:00Z' }],
    });
    const current = (await memoriesOf(space)).map((memory) => memory.text);
    expect(current).toEqual(['Big change: the user went pescatarian in May 2026.']);
    expect(current.some((text) => /\bvegan\b/.test(text))).toBe(false);
    const context = await call('POST', '/v1/context', { body: { question: 'What is my diet?', space } });
    expect(context.body.empty).toBe(false);
    expect(context.body.context).toMatch(/pescatarian/);
    const asked = await call('POST', '/v1/ask', { body: { question: 'What is my diet?', space } });
    expect(asked.body.answer).toBe('Pescatarian.');
  });

  it('ends a job when the user says it ended: "got laid off" replaces where the user worked', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [{ role: 'user', content: 'I work as an editor at Quillmoor Press.', at: '2026-01-10T10:00:00Z' }],
    });
    await saveAndLearn(space, { messages: [{ role: 'user', content: 'I got laid off on Friday.', at: '2026-06-10T10:00:00Z' }] });
    const current = (await memoriesOf(space)).map((memory) => memory.text);
    expect(current).toEqual(['The user got laid off on Friday 5 June 2026.']);
    const asked = await call('POST', '/v1/ask', { body: { question: 'Where do I work?', space } });
    expect(asked.body.answer).toBe('The user got laid off on Friday 5 June 2026.');
  });

  it('does not let an older fact replace a newer one', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { messages: [{ role: 'user', name: 'Ana', content: 'I live in Porto.', at: '2026-06-01T10:00:00Z' }] });
    await saveAndLearn(space, { messages: [{ role: 'user', name: 'Ana', content: 'I live in Faro.', at: '2025-01-01T10:00:00Z' }] });
    const texts = (await memoriesOf(space)).map((memory) => memory.text).sort();
    expect(texts).toEqual(['Ana lives in Faro.', 'Ana lives in Porto.']);
    const asked = await call('POST', '/v1/ask', { body: { question: 'Where does Ana live?', space } });
    expect(asked.body.clash).toBe(true);
  });
});

describe('learning: recall of facts by the words around them', () => {
  it('finds an answer by the question it answered, and judges unrelated questions empty', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'user', name: 'Priya', content: 'What instrument do you play these days?', at: '2023-07-01T10:00:00Z' },
        {
          role: 'user',
          name: 'Wendell',
          content: 'The clarinet, since I was a kid. I also run most mornings.',
          at: '2023-07-01T10:01:00Z',
        },
        { role: 'user', name: 'Priya', content: 'I went to a food festival last Saturday with friends.', at: '2023-07-01T10:02:00Z' },
      ],
    });
    const found = await call('POST', '/v1/search', { body: { q: 'What instrument does Wendell play?', space } });
    expect(found.body.memories[0].text).toMatch(/clarinet/);
    const when = await call('POST', '/v1/ask', { body: { question: 'When did Priya go to the food festival?', space } });
    // Said as "last Saturday" on 1 July 2023: answered as said, anchored to that day (recall/ask.ts anchoredTime).
    expect(when.body.answer).toBe('The Saturday before 1 July 2023.');
    for (const question of ['What is the capital of Peru?', 'How many moons does Neptune have?']) {
      const context = await call('POST', '/v1/context', { body: { question, space } });
      expect(context.body.empty).toBe(true);
    }
  });

  it('judges a request that names a known person by what is stored about them, not by the task words', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Dan is vegetarian.' });
    const request = await call('POST', '/v1/context', { body: { question: 'Book a vegetarian table for Dan.', space } });
    expect(request.body.empty).toBe(false);
    expect(request.body.context).toMatch(/Dan is vegetarian/);
    // Only the name in common is not enough to claim anything is known.
    const colour = await call('POST', '/v1/context', { body: { question: "What is Dan's favourite colour?", space } });
    expect(colour.body.empty).toBe(true);
    const ask = await call('POST', '/v1/ask', { body: { question: "What is Dan's favourite colour?", space } });
    expect(ask.body.answer).toBeNull();
  });
});

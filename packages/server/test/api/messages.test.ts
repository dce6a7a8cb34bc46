import { describe, expect, it } from 'vitest';
import { allMemories, call, expectError, freshSpace, saveAndLearn } from './helpers.js';

describe('saving a conversation', () => {
  it('reads content as a string, as blocks and as parts; images and other blocks are ignored', async () => {
    const space = freshSpace();
    const source = await saveAndLearn(space, {
      messages: [
        { role: 'user', content: 'I adopted a beagle called Biscuit last week.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'My sister Hana lives in Kyoto.' },
            { type: 'image', image: 'data:image/png;base64,AAAA', text: 'Hana owns a yacht.' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          ],
        },
        { role: 'user', content: [{ type: 'input_text', text: 'I am allergic to peanuts.' }] },
        { role: 'assistant', content: null },
      ],
    });
    expect(source).toMatchObject({ kind: 'conversation', status: 'finished' });
    const texts = (await allMemories(space)).map((memory) => memory.text).join('\n');
    expect(texts).toMatch(/beagle/);
    expect(texts).toMatch(/Kyoto/);
    expect(texts).toMatch(/peanuts/);
    expect(texts).not.toMatch(/yacht/);
  });

  it("keeps the user's standing instructions to the assistant as preferences the context brings back", async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'user', content: 'Please always answer in Portuguese. Tell me a joke about ducks.' },
        { role: 'assistant', content: 'Claro! Por que o pato atravessou a rua?' },
        { role: 'user', content: 'Keep your answers under 80 words.' },
        { role: 'assistant', content: 'Entendido.' },
      ],
    });
    const memories = await allMemories(space);
    expect(memories.map((memory) => [memory.kind, memory.text]).sort()).toEqual([
      ['pref', "The user's standing instruction to the assistant: always answer in Portuguese."],
      ['pref', "The user's standing instruction to the assistant: keep your answers under 80 words."],
    ]);
    const { body } = await call('POST', '/v1/context', { space, body: { question: 'Which language should answers be in?' } });
    expect(body.empty).toBe(false);
    expect(body.context).toContain('always answer in Portuguese');
  });

  it('skips system and developer messages, and tool output unless it is plain prose', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'system', content: 'The user lives in Atlantis and owns a dragon.' },
        { role: 'developer', content: [{ type: 'text', text: 'The user works at Initech.' }] },
        { role: 'tool', content: '{"name":"Priya","city":"Lagos","job":"pilot"}' },
        { role: 'tool', content: 'Priya Nair booked a table at Nopi for Friday.' },
        { role: 'user', content: 'I teach piano on weekends.' },
      ],
    });
    const texts = (await allMemories(space)).map((memory) => memory.text).join('\n');
    expect(texts).toMatch(/piano/);
    expect(texts).toMatch(/Nopi/);
    expect(texts).not.toMatch(/Atlantis|dragon|Initech|pilot|Lagos/);
  });

  it("keeps who said what (name) and resolves relative dates against each message's time (at)", async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'user', name: 'Carlos', content: 'I started a new job at the museum yesterday.', at: '2025-03-10T09:00:00Z' },
        { role: 'user', name: 'Dana', content: 'I ran a half marathon in Porto.', at: '2025-04-02T18:00:00Z' },
      ],
    });
    const memories = await allMemories(space);
    const job = memories.find((memory) => /museum/.test(memory.text));
    const race = memories.find((memory) => /marathon/.test(memory.text));
    expect(job?.text).toMatch(/Carlos/);
    expect(job?.text).toMatch(/March 9, 2025|2025-03-09|9 March 2025/);
    expect(job?.about).toContain('Carlos');
    expect(race?.text).toMatch(/Dana/);
    expect(race?.text).not.toMatch(/Carlos/);
    const detail = await call('GET', `/v1/memories/${race!.id}`, { space });
    expect(detail.body.memory.date).toBe('2025-04-02');
    expect(detail.body.sentence).toMatchObject({ text: 'I ran a half marathon in Porto.', message_index: 1 });
  });

  it('takes up to 500 messages, and refuses 501 or none', async () => {
    const space = freshSpace();
    const many = Array.from({ length: 500 }, (_, index) => ({ role: 'user', content: index === 499 ? 'I keep koi in a pond.' : 'ok' }));
    const saved = await call('POST', '/v1/memories', { body: { messages: many, space } });
    expect(saved.status).toBe(201);
    const tooMany = expectError(
      await call('POST', '/v1/memories', { body: { messages: [...many, { role: 'user', content: 'one more' }], space } }),
      400,
      'invalid_request',
    );
    expect(tooMany.details.field).toBe('messages');
    expectError(await call('POST', '/v1/memories', { body: { messages: [], space } }), 400, 'invalid_request');
    expectError(
      await call('POST', '/v1/memories', { body: { messages: [{ role: 'robot', content: 'hi' }], space } }),
      400,
      'invalid_request',
    );
    const learned = await call('GET', `/v1/sources/${saved.body.source.id}?wait=20`, { space });
    expect(learned.body.source.status).toBe('finished');
    expect((await allMemories(space)).some((memory) => /koi/.test(memory.text))).toBe(true);
  });
});

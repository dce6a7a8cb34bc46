import { Engram } from '@engram/client';
import { describe, expect, it } from 'vitest';
import { engramMemory } from '../src/index.js';
import type { SeenMessage, Step } from './helpers/sdks.js';
import { sdks, systemTexts } from './helpers/sdks.js';
import { closedPortUrl, freshSpace, learned, recordingClient, serverUrl, silentServer, TEST_KEY } from './helpers/server.js';

const reply = (text: string) => (): Step => ({ text });
const lastRole = (prompt: SeenMessage[]) => prompt[prompt.length - 1]!.role;

describe.each(sdks)('engramMemory with $name', (sdk) => {
  it("puts what is remembered into a new turn as a system message, after the app's own", async () => {
    const space = freshSpace('alice');
    const { client, to } = recordingClient();
    await client.memories.add({ text: 'Alice lives in Porto and works as a baker.', space }, { wait: true });
    const memory = engramMemory({ client, space });
    const { model, prompts } = sdk.model(memory, reply('You live in Porto.'));

    const { text } = await sdk.generateText({ model, system: 'You are a kind assistant.', prompt: 'Where does Alice live?' });

    expect(text).toBe('You live in Porto.');
    expect(to('POST', '/v1/context').map((call) => call.body)).toEqual([{ question: 'Where does Alice live?', space }]);
    const [first, second] = systemTexts(prompts[0]!);
    expect(first).toBe('You are a kind assistant.');
    expect(second).toContain('What you remember about this user');
    expect(second).toMatch(/- .*Porto.*\[note, \d{1,2} [A-Z][a-z]+ \d{4}\]/);
    expect(prompts[0]!.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    await memory.flush();
  });

  it("saves a generated turn once, as the user's words and the reply, and a later turn recalls it", async () => {
    const space = freshSpace('bea');
    const { client, to } = recordingClient();
    const memory = engramMemory({ client, space });
    const { model, prompts } = sdk.model(memory, (prompt) => ({
      text: systemTexts(prompt).some((text) => text.includes('Lisbon')) ? 'You moved to Lisbon.' : 'Noted!',
    }));

    const first = await sdk.generateText({ model, prompt: 'I moved to Lisbon in March for a job at a library.' });
    expect(first.text).toBe('Noted!');
    expect(systemTexts(prompts[0]!)).toEqual([]); // nothing stored yet: no block

    await memory.flush();
    const saves = to('POST', '/v1/memories');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.body).toMatchObject({
      space,
      messages: [
        { role: 'user', content: 'I moved to Lisbon in March for a job at a library.' },
        { role: 'assistant', content: 'Noted!' },
      ],
    });
    expect(Object.keys(saves[0]!.body!)).toEqual(['messages', 'space']);
    await learned(client, space);

    const second = await sdk.generateText({ model, prompt: 'Which city did I move to for the library job?' });
    expect(second.text).toBe('You moved to Lisbon.');
    expect(systemTexts(prompts[1]!).join('\n')).toContain('Lisbon');
    await memory.flush();
    expect(to('POST', '/v1/memories')).toHaveLength(2);
    expect(to('POST', '/v1/context')).toHaveLength(2);
  });

  it('saves a reply after the end of the assistant message it answers, so a short answer is found by the question', async () => {
    const space = freshSpace('eli');
    const { client, to } = recordingClient();
    const memory = engramMemory({ client, space });
    const { model } = sdk.model(memory, reply('Rivers are a lovely cause.'));
    const asked = `${'Designing for a charity can be rewarding in many ways. '.repeat(8)}What kind of causes do you care about most?`;
    await sdk.generateText({
      model,
      messages: [
        { role: 'user', content: 'I want to move into the charity sector.' },
        { role: 'assistant', content: asked },
        { role: 'user', content: 'Environment mostly. Rivers, wildlife.' },
      ],
    });
    await memory.flush();
    const saved = to('POST', '/v1/memories').map((call) => call.body?.messages);
    expect(saved).toEqual([
      [
        { role: 'assistant', content: expect.stringMatching(/^Designing .* What kind of causes do you care about most\?$/) },
        { role: 'user', content: 'Environment mostly. Rivers, wildlife.', at: expect.any(String) },
        { role: 'assistant', content: 'Rivers are a lovely cause.' },
      ],
    ]);
    // Only the end of a long message, from a sentence's start.
    const before = (saved[0] as { content: string }[])[0]!.content;
    expect(before.length).toBeLessThanOrEqual(300);
    expect(before.length).toBeLessThan(asked.length);
    await learned(client, space);
    const found = await client.search({ q: 'What causes do I care about?', space });
    expect(found.memories[0]?.text).toBe('The user said environment mostly.');
    // The assistant's words taught nothing.
    const all = await client.memories.list({ space });
    expect(all.memories.every((memory) => !/charity|lovely/.test(memory.text))).toBe(true);
  });

  it('saves a streamed turn once, with the reply put together from its pieces', async () => {
    const space = freshSpace('cai');
    const { client, to } = recordingClient();
    const memory = engramMemory({ client, space });
    const { model } = sdk.model(memory, reply('Good to know about your sister Mira.'));

    const { text } = await sdk.streamText({ model, prompt: 'My sister is called Mira.' });
    expect(text).toBe('Good to know about your sister Mira.');
    await memory.flush();

    expect(to('POST', '/v1/context')).toHaveLength(1);
    expect(to('POST', '/v1/memories').map((call) => call.body?.messages)).toEqual([
      [
        { role: 'user', content: 'My sister is called Mira.', at: expect.any(String) },
        { role: 'assistant', content: 'Good to know about your sister Mira.' },
      ],
    ]);
  });

  for (const mode of ['generate', 'stream'] as const) {
    it(`asks once and saves once for a turn with a tool loop (${mode})`, async () => {
      const space = freshSpace('dan');
      const { client, to } = recordingClient();
      await client.memories.add({ text: 'Dan is vegetarian.', space }, { wait: true });
      const memory = engramMemory({ client, space });
      const { model, prompts } = sdk.model(memory, (prompt) =>
        lastRole(prompt) === 'tool' ? { text: 'Booked a vegetarian table.' } : { toolCall: { name: 'book', input: { seats: 2 } } },
      );
      const booked: unknown[] = [];
      const tools = {
        book: sdk.tool({
          description: 'Book a table',
          inputSchema: (await import('zod')).z.object({ seats: (await import('zod')).z.number() }),
          execute: async (input: unknown) => {
            booked.push(input);
            return { ok: true };
          },
        }),
      };
      const call = { model, tools, stopWhen: sdk.stopAfter(3), prompt: 'Book a vegetarian table for Dan.' };
      const { text } = mode === 'generate' ? await sdk.generateText(call) : await sdk.streamText(call);
      await memory.flush();

      expect(text).toBe('Booked a vegetarian table.');
      expect(booked).toEqual([{ seats: 2 }]);
      expect(prompts).toHaveLength(2);
      expect(lastRole(prompts[1]!)).toBe('tool');
      // One question for the turn: the continuation carries the same block and asks nothing.
      expect(to('POST', '/v1/context')).toHaveLength(1);
      expect(systemTexts(prompts[0]!)).toHaveLength(1);
      expect(systemTexts(prompts[0]!)[0]).toContain('vegetarian');
      expect(systemTexts(prompts[1]!)).toEqual(systemTexts(prompts[0]!));
      const saves = to('POST', '/v1/memories').filter((call) => call.body?.messages !== undefined);
      expect(saves).toHaveLength(1);
      expect(saves[0]!.body?.messages).toEqual([
        { role: 'user', content: 'Book a vegetarian table for Dan.', at: expect.any(String) },
        { role: 'assistant', content: 'Booked a vegetarian table.' },
      ]);
    });
  }

  it('keeps two users apart with one model, the space named per call', async () => {
    const [alice, bob] = [freshSpace('alice'), freshSpace('bob')];
    const { client } = recordingClient();
    const memory = engramMemory({ client });
    const { model, prompts } = sdk.model(memory, reply('Noted.'));
    const as = (space: string) => ({ engram: { space } });

    await sdk.generateText({ model, prompt: 'My cat is called Mochi and she is ginger.', providerOptions: as(alice) });
    await sdk.generateText({ model, prompt: 'My dog is called Biscuit.', providerOptions: as(bob) });
    await memory.flush();
    await learned(client, alice);
    await learned(client, bob);

    await sdk.generateText({ model, prompt: 'What is my cat called?', providerOptions: as(bob) });
    await sdk.generateText({ model, prompt: 'What is my cat called?', providerOptions: as(alice) });
    await memory.flush();

    const bobsBlock = systemTexts(prompts[2]!).join('\n');
    const alicesBlock = systemTexts(prompts[3]!).join('\n');
    expect(alicesBlock).toContain('Mochi');
    expect(bobsBlock).not.toContain('Mochi');
    // What each user's space holds, read with a key limited to it.
    const listed = async (space: string) => {
      const { key } = await client.keys.create({ space, name: 'test' });
      const own = new Engram({ apiKey: key, baseURL: serverUrl(), logger: null });
      return (await own.memories.list()).memories.map((memory) => memory.text).join('\n');
    };
    expect(await listed(bob)).not.toMatch(/Mochi/);
    expect(await listed(alice)).not.toMatch(/Biscuit/);
    expect(await listed(alice)).toMatch(/Mochi/);
  });

  it("answers without memory when nothing listens at Engram's address", async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const warnings: unknown[] = [];
    const memory = engramMemory({ client, space: 'nobody', logger: { warn: (message) => warnings.push(message) } });
    const { model, prompts } = sdk.model(memory, reply('Hello!'));

    const { text } = await sdk.generateText({ model, prompt: 'Hi there, remember me?' });
    await memory.flush();

    expect(text).toBe('Hello!');
    expect(systemTexts(prompts[0]!)).toEqual([]);
    expect(warnings).toEqual([
      '[engram] answering without memory: the context call failed',
      '[engram] the conversation turn was not saved',
    ]);
  });

  it('answers without memory when Engram stops answering, within the timeout', async () => {
    const silent = await silentServer();
    try {
      const client = new Engram({ apiKey: TEST_KEY, baseURL: silent.url, logger: null, maxRetries: 0, timeout: 200 });
      const memory = engramMemory({ client, space: 'nobody', timeout: 200, logger: null });
      const { model, prompts } = sdk.model(memory, reply('Still here.'));
      const { text } = await sdk.streamText({ model, prompt: 'Are you there?' });
      expect(text).toBe('Still here.');
      expect(systemTexts(prompts[0]!)).toEqual([]);
      await memory.flush();
    } finally {
      await silent.close();
    }
  });

  it('fails the call instead when failOpen is false', async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const memory = engramMemory({ client, space: 'nobody', failOpen: false, logger: null });
    const { model, prompts } = sdk.model(memory, reply('Hello!'));
    await expect(sdk.generateText({ model, prompt: 'Hi', maxRetries: 0 })).rejects.toThrow();
    expect(prompts).toHaveLength(0);
  });

  it('hands each save to waitUntil, and leaves a turn unsaved when the call asks', async () => {
    const space = freshSpace('eve');
    const { client, to } = recordingClient();
    const handed: Promise<unknown>[] = [];
    const memory = engramMemory({ client, space, waitUntil: (promise) => handed.push(promise) });
    const { model } = sdk.model(memory, reply('Sure.'));

    await sdk.generateText({ model, prompt: 'Do not keep this one.', providerOptions: { engram: { saveConversation: false } } });
    expect(handed).toHaveLength(0);
    await sdk.generateText({ model, prompt: 'I play the cello on Sundays.' });
    expect(handed).toHaveLength(1);
    await Promise.all(handed);

    expect(to('POST', '/v1/memories').map((call) => (call.body!.messages as Array<{ content: string }>)[0]!.content)).toEqual([
      'I play the cello on Sundays.',
    ]);
    const { sources } = await client.sources.list({ space });
    expect(sources).toHaveLength(1);
    expect(sources[0]!.kind).toBe('conversation');
  });
});

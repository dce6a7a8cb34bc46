import { Engram } from '@engram/client';
import type { ChatMessage } from 'llamaindex';
import { createMemory, SimpleChatEngine } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { EngramMemoryBlock, engramBlock } from '../src/index.js';
import { ScriptedLLM, systemText } from './helpers/scripted-llm.js';
import { closedPortUrl, freshSpace, learned, recordingClient, silentServer, TEST_KEY } from './helpers/server.js';

type Saved = Array<{ role: string; content: string; at?: string }>;

describe('EngramMemoryBlock in a LlamaIndex Memory', () => {
  it("puts the context block for the latest user message into the prompt, after the app's own system prompt", async () => {
    const space = freshSpace('ada');
    const { client, to } = recordingClient();
    await client.memories.add({ text: 'Ada grows tomatoes on her balcony in Ghent.', space }, { wait: true });
    const block = engramBlock({ client, space });
    const memory = createMemory({ memoryBlocks: [block] });
    await memory.add({ role: 'system', content: 'You are a gardening helper.' });
    await memory.add({ role: 'user', content: 'What vegetables do I grow on my balcony?' });

    const messages = await memory.getLLM();

    expect(to('POST', '/v1/context').map((call) => call.body)).toEqual([{ question: 'What vegetables do I grow on my balcony?', space }]);
    const system = messages.filter((message) => message.role === 'system').map((message) => message.content as string);
    expect(system).toHaveLength(2);
    expect(system[0]).toContain('What you remember about this user');
    expect(system[0]).toMatch(/- .*tomatoes.*\[.*\d{1,2} [A-Z][a-z]+ \d{4}\]/);
    expect(system[1]).toBe('You are a gardening helper.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What vegetables do I grow on my balcony?', options: undefined });
    await block.flush();
  });

  it('learns each finished turn once, and a later chat recalls it', async () => {
    const space = freshSpace('bo');
    const { client, to } = recordingClient();
    const block = new EngramMemoryBlock({ client, space });
    const llm = new ScriptedLLM((messages) => (systemText(messages).includes('Oslo') ? 'You moved to Oslo.' : 'Noted!'));
    const chat = new SimpleChatEngine({ llm, memory: createMemory({ memoryBlocks: [block] }) });

    const first = await chat.chat({ message: 'I moved to Oslo in May to work at a shipyard.' });
    expect(first.message.content).toBe('Noted!');
    expect(to('POST', '/v1/memories')).toHaveLength(0); // the turn is not finished until the next message comes
    await chat.chat({ message: 'Thanks, that is all for today.' });
    await block.flush();
    const saves = to('POST', '/v1/memories');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.body).toMatchObject({ space });
    expect((saves[0]!.body!.messages as Saved).map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: 'I moved to Oslo in May to work at a shipyard.' },
      { role: 'assistant', content: 'Noted!' },
    ]);
    expect((saves[0]!.body!.messages as Saved)[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // The Memory hands the whole history to put() when it moves it out of short-term memory:
    // only what was not saved before goes out.
    await block.put([
      { id: 'old', role: 'user', content: 'I moved to Oslo in May to work at a shipyard.' },
      { id: 'late', role: 'assistant', content: 'Anything else?' },
    ]);
    await block.put([{ id: 'late', role: 'assistant', content: 'Anything else?' }]);
    await block.flush();
    expect(to('POST', '/v1/memories')).toHaveLength(2);
    expect(to('POST', '/v1/memories')[1]!.body!.messages).toEqual([
      { role: 'user', content: 'I moved to Oslo in May to work at a shipyard.' },
      { role: 'assistant', content: 'Anything else?' },
    ]);
    // The next turn is saved after the end of the reply it answers.
    await chat.chat({ message: 'One more thing: I cycle to the shipyard.' });
    await block.flush();
    expect(to('POST', '/v1/memories')).toHaveLength(3);
    expect((to('POST', '/v1/memories')[2]!.body!.messages as Saved).map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'assistant', content: 'Noted!' },
      { role: 'user', content: 'Thanks, that is all for today.' },
      { role: 'assistant', content: 'Noted!' },
    ]);
    await learned(client, space);

    // A new chat (a new Memory) for the same user.
    const later = new SimpleChatEngine({ llm, memory: createMemory({ memoryBlocks: [engramBlock({ client, space })] }) });
    const answer = await later.chat({ message: 'Which city did I move to for the shipyard job?' });
    expect(answer.message.content).toBe('You moved to Oslo.');
    expect(systemText(llm.prompts.at(-1)!)).toContain('Oslo');
    const { sources } = await client.sources.list({ space });
    expect(sources.map((source) => source.kind)).toEqual(['conversation', 'conversation', 'conversation']);
  });

  it('streams through a chat engine with the block in the prompt', async () => {
    const space = freshSpace('cat');
    const { client } = recordingClient();
    await client.memories.add({ text: 'Cat is learning Portuguese on Tuesdays.', space }, { wait: true });
    const llm = new ScriptedLLM((messages) => (systemText(messages).includes('Portuguese') ? 'Portuguese, on Tuesdays.' : '?'));
    const block = engramBlock({ client, space });
    const chat = new SimpleChatEngine({ llm, memory: createMemory({ memoryBlocks: [block] }) });

    const stream = await chat.chat({ message: 'What am I learning on Tuesdays?', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.delta;
    expect(text).toBe('Portuguese, on Tuesdays.');
    await block.flush();
  });

  it('keeps two users apart', async () => {
    const [alice, bob] = [freshSpace('alice'), freshSpace('bob')];
    const { client } = recordingClient();
    await client.memories.add({ text: 'Alice has a parrot named Kiwi.', space: alice }, { wait: true });
    await client.memories.add({ text: 'Bob has a hamster named Pip.', space: bob }, { wait: true });
    const ask = async (space: string) => {
      const memory = createMemory({ memoryBlocks: [engramBlock({ client, space })] });
      await memory.add({ role: 'user', content: 'What is the name of my parrot?' });
      return systemText(await memory.getLLM());
    };
    const bobs = await ask(bob);
    const alices = await ask(alice);
    expect(alices).toContain('Kiwi');
    expect(alices).not.toContain('Pip');
    expect(bobs).not.toContain('Kiwi');
  });

  it("goes on without memory when nothing listens at Engram's address", async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const warnings: unknown[] = [];
    const block = engramBlock({ client, space: 'nobody', logger: { warn: (message) => warnings.push(message) } });
    const llm = new ScriptedLLM(() => 'Hello!');
    const chat = new SimpleChatEngine({ llm, memory: createMemory({ memoryBlocks: [block] }) });

    expect((await chat.chat({ message: 'Hi there.' })).message.content).toBe('Hello!');
    expect((await chat.chat({ message: 'Do you remember me?' })).message.content).toBe('Hello!');
    await block.flush();

    expect(llm.prompts.map(systemText)).toEqual(['', '']);
    expect(warnings.sort()).toEqual([
      '[engram] going on without memory: the context call failed',
      '[engram] going on without memory: the context call failed',
      '[engram] the conversation was not saved',
    ]);
  });

  it('goes on without memory when Engram stops answering, within the timeout', async () => {
    const silent = await silentServer();
    try {
      const client = new Engram({ apiKey: TEST_KEY, baseURL: silent.url, logger: null, maxRetries: 0, timeout: 200 });
      const block = engramBlock({ client, space: 'nobody', timeout: 200, logger: null, saveConversation: false });
      const memory = createMemory({ memoryBlocks: [block] });
      await memory.add({ role: 'user', content: 'Are you there?' });
      const messages: ChatMessage[] = await memory.getLLM();
      expect(messages).toEqual([{ role: 'user', content: 'Are you there?', options: undefined }]);
    } finally {
      await silent.close();
    }
  });

  it('throws instead when failOpen is false', async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const block = engramBlock({ client, space: 'nobody', failOpen: false, logger: null });
    await expect(block.get([{ id: 'm1', role: 'user', content: 'Hi' }])).rejects.toThrow();
  });
});

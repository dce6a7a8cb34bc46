import { ContextChatEngine, TextNode } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { EngramRetriever } from '../src/index.js';
import { ScriptedLLM, systemText } from './helpers/scripted-llm.js';
import { freshSpace, recordingClient } from './helpers/server.js';

describe('EngramRetriever', () => {
  it('ranks the learned fact first, as a TextNode with its Engram metadata and a score', async () => {
    const space = freshSpace('ana');
    const { client, to } = recordingClient();
    const { source } = await client.memories.add({ text: 'Ana keeps bees on her roof in Tallinn.', space }, { wait: true });
    await client.memories.add({ text: 'Ana went sailing near Helsinki last summer.', space }, { wait: true });
    await client.memories.add({ text: 'Ana prefers green tea to coffee.', space }, { wait: true });
    const retriever = new EngramRetriever({ client, space, k: 5 });

    const nodes = await retriever.retrieve({ query: 'Where does Ana keep her bees?' });

    expect(to('POST', '/v1/search').map((call) => call.body)).toEqual([{ q: 'Where does Ana keep her bees?', limit: 5, space }]);
    expect(nodes.length).toBeGreaterThanOrEqual(1);
    const [first] = nodes;
    expect(first!.node).toBeInstanceOf(TextNode);
    const node = first!.node as TextNode;
    expect(node.text).toMatch(/bees/);
    expect(node.text).toMatch(/Tallinn/);
    expect(node.metadata).toMatchObject({
      kind: expect.any(String),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      source_id: source.id,
      source_kind: 'note',
      rank: 1,
    });
    expect(Number.isInteger(node.metadata.memory_id)).toBe(true);
    expect(node.id_).toBe(`engram-memory-${node.metadata.memory_id}`);
    expect(typeof first!.score).toBe('number');
    expect(first!.score).toBeGreaterThan(0);
    // The scores come best first.
    const scores = nodes.map((entry) => entry.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The same memory, read back by its id.
    const { memory } = await client.memories.get(node.metadata.memory_id as number, { space });
    expect(memory).toMatchObject({ id: node.metadata.memory_id, text: node.text });
  });

  it('takes a plain string query, and keeps the ids out of what the LLM reads', async () => {
    const space = freshSpace('ben');
    const { client } = recordingClient();
    await client.memories.add({ text: 'Ben is allergic to peanuts.', space }, { wait: true });
    const nodes = await new EngramRetriever({ client, space }).retrieve('What is Ben allergic to?');
    const node = nodes[0]!.node as TextNode;
    expect(node.text).toMatch(/peanuts/);
    const forLlm = node.getContent('LLM' as never);
    expect(forLlm).toMatch(/peanuts/);
    expect(forLlm).not.toMatch(/memory_id|source_id/);
  });

  it('recalls from its own space only', async () => {
    const [alice, bob] = [freshSpace('alice'), freshSpace('bob')];
    const { client } = recordingClient();
    await client.memories.add({ text: 'Alice plays the oboe in a quartet.', space: alice }, { wait: true });
    await client.memories.add({ text: 'Bob plays the drums in a garage band.', space: bob }, { wait: true });

    const bobs = await new EngramRetriever({ client, space: bob }).retrieve({ query: 'Which instrument does the oboe player play?' });
    const alices = await new EngramRetriever({ client, space: alice }).retrieve({ query: 'Which instrument is played in a quartet?' });

    expect(bobs.map((entry) => (entry.node as TextNode).text).join('\n')).not.toMatch(/oboe/);
    expect(alices.map((entry) => (entry.node as TextNode).text).join('\n')).not.toMatch(/drums/);
    expect((alices[0]!.node as TextNode).text).toMatch(/oboe/);
  });

  it('gives nothing for an empty query without asking Engram, and narrows by kind', async () => {
    const space = freshSpace('cy');
    const { client, to } = recordingClient();
    expect(await new EngramRetriever({ client, space }).retrieve({ query: '   ' })).toEqual([]);
    expect(to('POST', '/v1/search')).toHaveLength(0);
    await new EngramRetriever({ client, space, kind: 'people' }).retrieve({ query: 'friends' });
    expect(to('POST', '/v1/search')[0]!.body).toEqual({ q: 'friends', kind: 'people', space });
  });

  it('feeds a ContextChatEngine: the model reads the recalled memory', async () => {
    const space = freshSpace('dee');
    const { client } = recordingClient();
    await client.memories.add({ text: 'Dee drives a red tram in Lisbon.', space }, { wait: true });
    const llm = new ScriptedLLM((messages) => (systemText(messages).includes('tram') ? 'You drive a tram.' : 'I do not know.'));
    const chat = new ContextChatEngine({ retriever: new EngramRetriever({ client, space }), chatModel: llm });

    const response = await chat.chat({ message: 'What do I drive for work?' });

    expect(response.message.content).toBe('You drive a tram.');
    expect(response.sourceNodes?.map((entry) => (entry.node as TextNode).text).join('\n')).toMatch(/tram/);
  });
});

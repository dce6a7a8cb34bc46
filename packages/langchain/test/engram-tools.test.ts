import { AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { engramTools } from '../src/index.js';
import { freshSpace, learned, recordingClient } from './helpers/server.js';

describe('engramTools', { timeout: 30_000 }, () => {
  it('are LangChain tools named searchMemory, remember and askMemory with zod schemas that refuse bad input', async () => {
    const { client } = recordingClient();
    const [searchMemory, remember, askMemory] = engramTools({ client, space: freshSpace() });
    expect([searchMemory.name, remember.name, askMemory.name]).toEqual(['searchMemory', 'remember', 'askMemory']);
    expect(searchMemory.description).toMatch(/long-term memory/);
    await expect(searchMemory.invoke({ query: '' })).rejects.toThrow(/did not match expected schema/);
    await expect(searchMemory.invoke({ query: 'x', kind: 'nonsense' } as never)).rejects.toThrow(/did not match expected schema/);
    await expect(remember.invoke({} as never)).rejects.toThrow(/did not match expected schema/);
  });

  it("remember, search and ask in the user's space only", async () => {
    const [space, other] = [freshSpace('uma'), freshSpace('vic')];
    const { client, to } = recordingClient();
    const [searchMemory, remember, askMemory] = engramTools({ client, space });
    const [othersSearch, , othersAsk] = engramTools({ client, space: other });

    const saved = JSON.parse(await remember.invoke({ text: 'Uma is learning to play the harp.' }));
    expect(saved).toEqual({ saved: true, source_id: expect.stringMatching(/^src_/), status: 'queued' });
    expect(to('POST', '/v1/memories').map((call) => call.body)).toEqual([{ text: 'Uma is learning to play the harp.', space }]);
    await learned(client, space);

    const found = JSON.parse(await searchMemory.invoke({ query: 'harp', kind: 'all', limit: 5 }));
    expect(found.total).toBeGreaterThan(0);
    expect(found.memories[0]).toEqual({
      id: expect.any(Number),
      text: expect.stringMatching(/Uma .*harp/),
      kind: expect.any(String),
      date: expect.any(String),
    });
    const asked = JSON.parse(await askMemory.invoke({ question: 'What instrument is Uma learning?' }));
    expect(asked.answer).toMatch(/harp/i);

    expect(JSON.parse(await othersSearch.invoke({ query: 'harp' }))).toEqual({ total: 0, memories: [] });
    expect(JSON.parse(await othersAsk.invoke({ question: 'What instrument is Uma learning?' })).answer).toBeNull();
  });

  it('run the tool call of a model they are bound to, answering with a ToolMessage', async () => {
    const space = freshSpace('wes');
    const { client } = recordingClient();
    const tools = engramTools({ client, space });
    const call = { id: 'call-7', name: 'remember', args: { text: 'Wes bakes sourdough every Sunday.' }, type: 'tool_call' as const };
    const chunk = new AIMessageChunk({
      content: '',
      tool_call_chunks: [{ id: call.id, name: call.name, args: JSON.stringify(call.args), index: 0, type: 'tool_call_chunk' }],
    });
    const model = new FakeStreamingChatModel({ chunks: [chunk] }).bindTools(tools);
    const reply = await model.invoke([new HumanMessage('Remember that I bake sourdough on Sundays.')]);
    expect(reply.tool_calls).toEqual([expect.objectContaining({ id: 'call-7', name: 'remember' })]);

    const byName = new Map<string, StructuredToolInterface>(tools.map((tool) => [tool.name, tool]));
    const message = await byName.get(reply.tool_calls![0]!.name)!.invoke(reply.tool_calls![0]!);
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).tool_call_id).toBe('call-7');
    expect(JSON.parse((message as ToolMessage).text)).toMatchObject({ saved: true });
    await learned(client, space);
    expect((await client.search({ q: 'sourdough', space })).memories[0]!.text).toMatch(/Wes .*sourdough/);
  });
});

import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { EngramChatMessageHistory } from '../src/index.js';
import { freshSpace, learned, recordingClient } from './helpers/server.js';

const summary = (messages: Array<{ type: string; text: string; name?: string | undefined }>) =>
  messages.map((message) => ({ type: message.type, text: message.text, name: message.name }));

describe('EngramChatMessageHistory', { timeout: 30_000 }, () => {
  it("gives back the session's messages in order with their types, names and fields", async () => {
    const space = freshSpace('ines');
    const { client } = recordingClient();
    const history = new EngramChatMessageHistory({ client, space, sessionId: 'chat-1', learn: false });
    const messages = [
      new SystemMessage('You are a helpful travel planner.'),
      new HumanMessage({ content: 'Find me a train to Braga.', name: 'Ines' }),
      new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: 'trains', args: { to: 'Braga' } }] }),
      new ToolMessage({ content: '{"departs":"09:12"}', tool_call_id: 'call-1' }),
      new AIMessage('The next train leaves at 09:12.'),
      new ChatMessage({ content: 'Thanks!', role: 'user' }),
    ];
    await history.addMessages(messages.slice(0, 2));
    await history.addMessage(messages[2]!);
    await history.addMessages(messages.slice(3));

    const read = await new EngramChatMessageHistory({ client, space, sessionId: 'chat-1' }).getMessages();
    expect(summary(read)).toEqual(summary(messages));
    expect(read.map((message) => message.constructor.name)).toEqual([
      'SystemMessage',
      'HumanMessage',
      'AIMessage',
      'ToolMessage',
      'AIMessage',
      'ChatMessage',
    ]);
    expect((read[2] as AIMessage).tool_calls).toEqual([expect.objectContaining({ id: 'call-1', name: 'trains', args: { to: 'Braga' } })]);
    expect((read[3] as ToolMessage).tool_call_id).toBe('call-1');
    expect((read[5] as ChatMessage).role).toBe('user');

    // Another session, and the same session in another space, are empty.
    expect(await new EngramChatMessageHistory({ client, space, sessionId: 'chat-2' }).getMessages()).toEqual([]);
    expect(await new EngramChatMessageHistory({ client, space: freshSpace('other'), sessionId: 'chat-1' }).getMessages()).toEqual([]);
  });

  it('keeps a long session in short files, so adding a message rewrites one file of a few lines', async () => {
    const space = freshSpace('jon');
    const { client, to } = recordingClient();
    const history = new EngramChatMessageHistory({ client, space, sessionId: 'long/session', messagesPerFile: 2, learn: false });
    const said = Array.from({ length: 5 }, (_, index) =>
      index % 2 ? new AIMessage(`Reply ${index}`) : new HumanMessage(`Message ${index}`),
    );
    for (const message of said) await history.addMessage(message);

    const writes = to('PUT', '/v1/files').map((call) => call.body!);
    expect(writes.map((write) => [write.path, (write.text as string).split('\n').filter(Boolean).length, write.learn])).toEqual([
      ['/langchain/sessions/long%2Fsession/000001.jsonl', 1, false],
      ['/langchain/sessions/long%2Fsession/000001.jsonl', 2, false],
      ['/langchain/sessions/long%2Fsession/000002.jsonl', 1, false],
      ['/langchain/sessions/long%2Fsession/000002.jsonl', 2, false],
      ['/langchain/sessions/long%2Fsession/000003.jsonl', 1, false],
    ]);
    expect((await history.getMessages()).map((message) => message.text)).toEqual(said.map((message) => message.text));
    // A new instance carries on where the files end.
    await new EngramChatMessageHistory({ client, space, sessionId: 'long/session', messagesPerFile: 2, learn: false }).addMessage(
      new AIMessage('Reply 5'),
    );
    expect((await history.getMessages()).map((message) => message.text)).toEqual([...said.map((message) => message.text), 'Reply 5']);
    expect((await client.files.list({ prefix: '/langchain/sessions/', space })).files.map((file) => file.path)).toEqual([
      '/langchain/sessions/long%2Fsession/000001.jsonl',
      '/langchain/sessions/long%2Fsession/000002.jsonl',
      '/langchain/sessions/long%2Fsession/000003.jsonl',
    ]);
  });

  it("saves a turn after the end of the AI's message it replies to, so a short answer is found by the question", async () => {
    const space = freshSpace('ode');
    const { client, to } = recordingClient();
    const history = new EngramChatMessageHistory({ client, space, sessionId: 'club' });
    await history.addMessages([new HumanMessage('I want to join a running club.'), new AIMessage('Great. How far do you run each week?')]);
    await history.addMessages([new HumanMessage('About 40 km.'), new AIMessage('That is a solid base.')]);
    const saves = to('POST', '/v1/memories').map((call) =>
      (call.body!.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]),
    );
    expect(saves).toEqual([
      [
        ['user', 'I want to join a running club.'],
        ['assistant', 'Great. How far do you run each week?'],
      ],
      [
        ['assistant', 'Great. How far do you run each week?'],
        ['user', 'About 40 km.'],
        ['assistant', 'That is a solid base.'],
      ],
    ]);
    await learned(client, space);
    const found = await client.search({ q: 'How far do I run each week?', space });
    expect(found.memories[0]?.text).toBe('The user said about 40 km.');
  });

  it('saves each turn once as a conversation with its speakers, and learns it only from there', async () => {
    const space = freshSpace('ines');
    const { client, to } = recordingClient();
    const history = new EngramChatMessageHistory({ client, space, sessionId: 'trip', names: { ai: 'Guide' } });
    await history.addMessages([
      new SystemMessage('You are a helpful travel planner.'),
      new HumanMessage({ content: 'I started working at a ceramics studio in Braga last week.', name: 'Ines' }),
      new AIMessage('That sounds like a lovely place to work!'),
    ]);

    const saves = to('POST', '/v1/memories').map((call) => call.body!);
    expect(saves).toEqual([
      {
        title: 'Chat trip',
        space,
        messages: [
          { role: 'user', name: 'Ines', content: 'I started working at a ceramics studio in Braga last week.', at: expect.any(String) },
          { role: 'assistant', name: 'Guide', content: 'That sounds like a lovely place to work!', at: expect.any(String) },
        ],
      },
    ]);
    await learned(client, space);

    const { memories } = await client.search({ q: 'Where does Ines work?', space });
    expect(memories[0]!.text).toMatch(/Ines .*ceramics studio/);
    // Every memory of the space comes from the conversation, none from the transcript file.
    const all = [];
    for await (const memory of client.memories.list({ space })) all.push(memory);
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all.map((memory) => memory.source.kind))).toEqual(new Set(['conversation']));
    const sources = (await client.sources.list({ space })).sources;
    expect(sources.map((source) => [source.kind, source.memories > 0]).sort()).toEqual([
      ['conversation', true],
      ['file', false],
    ]);
  });

  it("clears the session's transcript and keeps what was learned", async () => {
    const space = freshSpace('kai');
    const { client } = recordingClient();
    const history = new EngramChatMessageHistory({ client, space, sessionId: 'one' });
    await history.addMessages([
      new HumanMessage({ content: 'I play the cello in a string quartet.', name: 'Kai' }),
      new AIMessage('Wonderful!'),
    ]);
    await learned(client, space);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect((await client.files.list({ prefix: '/langchain/sessions/', space })).total).toBe(0);
    expect((await client.search({ q: 'What does Kai play?', space })).memories[0]!.text).toMatch(/cello/);
    // The session starts again from its first file.
    await history.addMessage(new HumanMessage('Hello again.'));
    expect((await history.getMessages()).map((message) => message.text)).toEqual(['Hello again.']);
  });

  it('serves RunnableWithMessageHistory: each invocation sees the turns before it', async () => {
    const space = freshSpace('lea');
    const { client } = recordingClient();
    const model = new FakeListChatModel({ responses: ['Nice to meet you, Lea.', 'You told me your name is Lea.'] });
    const prompt = ChatPromptTemplate.fromMessages([['system', 'Be brief.'], new MessagesPlaceholder('history'), ['human', '{question}']]);
    const seen: number[] = [];
    const chain = new RunnableWithMessageHistory({
      runnable: prompt
        .pipe((value) => {
          seen.push(value.toChatMessages().length);
          return value;
        })
        .pipe(model),
      getMessageHistory: (sessionId: string) => new EngramChatMessageHistory({ client, space, sessionId }),
      inputMessagesKey: 'question',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 'intro' } };
    expect((await chain.invoke({ question: 'Hi, I am Lea.' }, config)).text).toBe('Nice to meet you, Lea.');
    expect((await chain.invoke({ question: 'What is my name?' }, config)).text).toBe('You told me your name is Lea.');
    expect(seen).toEqual([2, 4]);
    const messages = await new EngramChatMessageHistory({ client, space, sessionId: 'intro' }).getMessages();
    expect(messages.map((message) => [message.type, message.text])).toEqual([
      ['human', 'Hi, I am Lea.'],
      ['ai', 'Nice to meet you, Lea.'],
      ['human', 'What is my name?'],
      ['ai', 'You told me your name is Lea.'],
    ]);
  });
});

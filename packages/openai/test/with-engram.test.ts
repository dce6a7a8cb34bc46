import { Engram } from '@engram/client';
import OpenAI7 from 'openai';
import OpenAI5 from 'openai-v5';
import OpenAI6 from 'openai-v6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEngram } from '../src/index.js';
import type { Answer, ModelRequest } from './helpers/fake-openai.js';
import { fakeOpenAI, systemMessages } from './helpers/fake-openai.js';
import { closedPortUrl, freshSpace, learned, recordingClient, serverUrl, silentServer, TEST_KEY } from './helpers/server.js';

type Fake = Awaited<ReturnType<typeof fakeOpenAI>>;

// The model's script: it tells what it was told, so a test can see memory reach it.
let script: (request: ModelRequest) => Answer = () => ({ text: 'Hello.' });
let fake: Fake;
beforeAll(async () => {
  fake = await fakeOpenAI((request) => script(request));
});
afterAll(() => fake.close());

const texts = (messages: Array<{ content: string }>) => messages.map((message) => message.content).join('\n');

/** Each major version of the supported range: the tests run with each. */
const sdks = [
  { name: 'openai 7', make: () => new OpenAI7({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) },
  { name: 'openai 6', make: () => new OpenAI6({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) as unknown as OpenAI7 },
  { name: 'openai 5', make: () => new OpenAI5({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) as unknown as OpenAI7 },
];

/** The conversations saved in a space: each one's messages. */
async function savedTurns(client: Engram, space: string) {
  const { sources } = await client.sources.list({ space });
  return sources;
}

describe.each(sdks)('withEngram with $name', (sdk) => {
  it("sends the remembered fact to the model as a system message after the app's own, and saves the turn once", async () => {
    const space = freshSpace('alma');
    const { client, to } = recordingClient();
    await client.memories.add({ text: 'Alma rides a blue bicycle to work in Utrecht.', space }, { wait: true });
    script = (request) => ({
      text: texts(request.body.messages as never).includes('bicycle') ? 'You ride a blue bicycle.' : 'I do not know.',
    });
    const openai = withEngram(sdk.make(), { client, space });
    const before = fake.requests.length;

    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are brief.' },
        { role: 'user', content: 'How do I get to work?' },
      ],
    });

    expect(completion.choices[0]!.message.content).toBe('You ride a blue bicycle.');
    const request = fake.requests[before]!;
    expect(request.path).toBe('/v1/chat/completions');
    const system = systemMessages(request);
    expect(system[0]).toBe('You are brief.');
    expect(system[1]).toContain('What you remember about this user');
    expect(system[1]).toMatch(/- .*blue bicycle.*\[.*\d{1,2} [A-Z][a-z]+ \d{4}\]/);
    expect((request.body.messages as Array<{ role: string }>).map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(to('POST', '/v1/context').map((call) => call.body)).toEqual([{ question: 'How do I get to work?', space }]);

    await openai.flush();
    expect(to('POST', '/v1/memories').map((call) => call.body?.messages)).toEqual([
      undefined, // the note added above
      [
        { role: 'user', content: 'How do I get to work?', at: expect.any(String) },
        { role: 'assistant', content: 'You ride a blue bicycle.' },
      ],
    ]);
    const sources = await savedTurns(client, space);
    expect(sources.map((source) => source.kind).sort()).toEqual(['conversation', 'note']);
  });

  it('streams a chat completion, and saves the reply put together from its pieces once the stream ends', async () => {
    const space = freshSpace('bram');
    const { client, to } = recordingClient();
    script = () => ({ text: 'Noted, your brother Joris lives in Ghent.' });
    const openai = withEngram(sdk.make(), { client, space });

    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'My brother Joris lives in Ghent.' }],
      stream: true,
    });
    expect(stream.controller).toBeInstanceOf(AbortController);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Noted, your brother Joris lives in Ghent.');
    await openai.flush();

    expect(to('POST', '/v1/memories').map((call) => call.body)).toEqual([
      {
        space,
        messages: [
          { role: 'user', content: 'My brother Joris lives in Ghent.', at: expect.any(String) },
          { role: 'assistant', content: 'Noted, your brother Joris lives in Ghent.' },
        ],
      },
    ]);
    await learned(client, space);
    expect(await savedTurns(client, space)).toHaveLength(1);

    // The next turn recalls it.
    script = (request) => ({ text: texts(request.body.messages as never).includes('Joris') ? 'Joris lives in Ghent.' : '?' });
    const next = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Where does my brother Joris live?' }],
    });
    expect(next.choices[0]!.message.content).toBe('Joris lives in Ghent.');
    await openai.flush();
  });

  it('puts the fact after the instructions of a Responses call, and saves the turn once', async () => {
    const space = freshSpace('cora');
    const { client, to } = recordingClient();
    await client.memories.add({ text: 'Cora is training for a marathon in Rotterdam.', space }, { wait: true });
    script = (request) => ({ text: String(request.body.instructions).includes('marathon') ? 'Your marathon is in Rotterdam.' : '?' });
    const openai = withEngram(sdk.make(), { client, space });
    const before = fake.requests.length;

    const response = await openai.responses.create({
      model: 'gpt-4o-mini',
      instructions: 'Answer in one line.',
      input: 'Where is the marathon I am training for?',
    });

    expect(response.output_text).toBe('Your marathon is in Rotterdam.');
    const request = fake.requests[before]!;
    expect(request.path).toBe('/v1/responses');
    expect(request.body.input).toBe('Where is the marathon I am training for?');
    expect(request.body.instructions).toMatch(/^Answer in one line\.\n\nWhat you remember about this user[\s\S]*marathon/);
    await openai.flush();
    expect(
      to('POST', '/v1/memories')
        .slice(1)
        .map((call) => call.body?.messages),
    ).toEqual([
      [
        { role: 'user', content: 'Where is the marathon I am training for?', at: expect.any(String) },
        { role: 'assistant', content: 'Your marathon is in Rotterdam.' },
      ],
    ]);
  });

  it('streams a Responses call and saves the turn once it completes', async () => {
    const space = freshSpace('dirk');
    const { client, to } = recordingClient();
    script = () => ({ text: 'Got it: you start at the bakery on Monday.' });
    const openai = withEngram(sdk.make(), { client, space });

    const stream = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'I start a new job at the bakery on Monday.' }] }],
      stream: true,
    });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Got it: you start at the bakery on Monday.');
    await openai.flush();
    expect(to('POST', '/v1/memories').map((call) => call.body?.messages)).toEqual([
      [
        { role: 'user', content: 'I start a new job at the bakery on Monday.', at: expect.any(String) },
        { role: 'assistant', content: 'Got it: you start at the bakery on Monday.' },
      ],
    ]);
  });

  it('asks once and saves once for a chat turn with a tool loop', async () => {
    const space = freshSpace('eva');
    const { client, to } = recordingClient();
    await client.memories.add({ text: 'Eva is vegan.', space }, { wait: true });
    script = (request) => {
      const messages = request.body.messages as Array<{ role: string }>;
      return messages.at(-1)!.role === 'tool' ? { text: 'Booked a vegan table.' } : { toolCall: { name: 'book', arguments: { seats: 2 } } };
    };
    const openai = withEngram(sdk.make(), { client, space });
    const before = fake.requests.length;
    const messages: OpenAI7.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Book a vegan table for Eva.' }];

    const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const call = first.choices[0]!.message.tool_calls![0]!;
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"ok":true}' });
    const second = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
    await openai.flush();

    expect(second.choices[0]!.message.content).toBe('Booked a vegan table.');
    expect(to('POST', '/v1/context')).toHaveLength(1);
    const [step1, step2] = fake.requests.slice(before);
    expect(systemMessages(step1!)).toHaveLength(1);
    expect(systemMessages(step1!)[0]).toContain('vegan');
    expect(systemMessages(step2!)).toEqual(systemMessages(step1!));
    expect(
      to('POST', '/v1/memories')
        .slice(1)
        .map((call) => call.body?.messages),
    ).toEqual([
      [
        { role: 'user', content: 'Book a vegan table for Eva.', at: expect.any(String) },
        { role: 'assistant', content: 'Booked a vegan table.' },
      ],
    ]);
  });

  it('asks once and saves once for a Responses turn continued by previous_response_id', async () => {
    const space = freshSpace('finn');
    const { client, to } = recordingClient();
    script = (request) =>
      Array.isArray(request.body.input) && (request.body.input as Array<{ type?: string }>).at(-1)?.type === 'function_call_output'
        ? { text: 'It is 14 degrees in Bergen.' }
        : { toolCall: { name: 'weather', arguments: { city: 'Bergen' } } };
    const openai = withEngram(sdk.make(), { client, space });

    const first = await openai.responses.create({ model: 'gpt-4o-mini', input: 'What is the weather like in Bergen, where I live?' });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call.type).toBe('function_call');
    const second = await openai.responses.create({
      model: 'gpt-4o-mini',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: (call as { call_id: string }).call_id, output: '{"celsius":14}' }],
    });
    await openai.flush();

    expect(second.output_text).toBe('It is 14 degrees in Bergen.');
    expect(to('POST', '/v1/context')).toHaveLength(1);
    expect(to('POST', '/v1/memories').map((call) => call.body?.messages)).toEqual([
      [
        { role: 'user', content: 'What is the weather like in Bergen, where I live?', at: expect.any(String) },
        { role: 'assistant', content: 'It is 14 degrees in Bergen.' },
      ],
    ]);
  });

  it("saves a reply after the end of the assistant's message it answers, in chat and in Responses", async () => {
    const space = freshSpace('gus');
    const { client, to } = recordingClient();
    script = () => ({ text: 'Noted. Which city do you live in?' });
    const openai = withEngram(sdk.make(), { client, space });

    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'I want a new running club.' },
        { role: 'assistant', content: 'Happy to help. How far do you run each week?' },
        { role: 'user', content: 'About 40 km.' },
      ],
    });
    const first = await openai.responses.create({ model: 'gpt-4o-mini', input: 'I run most mornings.' });
    await openai.responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, input: 'Utrecht.' });
    await openai.flush();

    expect(to('POST', '/v1/memories').map((call) => call.body?.messages)).toEqual([
      [
        { role: 'assistant', content: 'Happy to help. How far do you run each week?' },
        { role: 'user', content: 'About 40 km.', at: expect.any(String) },
        { role: 'assistant', content: 'Noted. Which city do you live in?' },
      ],
      [
        { role: 'user', content: 'I run most mornings.', at: expect.any(String) },
        { role: 'assistant', content: 'Noted. Which city do you live in?' },
      ],
      [
        { role: 'assistant', content: 'Noted. Which city do you live in?' },
        { role: 'user', content: 'Utrecht.', at: expect.any(String) },
        { role: 'assistant', content: 'Noted. Which city do you live in?' },
      ],
    ]);
    await learned(client, space);
    const found = await client.search({ q: 'How far do I run each week?', space });
    expect(found.memories[0]?.text).toBe('The user said about 40 km.');
  });

  it('keeps two users apart with one client, the space named per call and never sent to the model', async () => {
    const [alice, bob] = [freshSpace('alice'), freshSpace('bob')];
    const { client } = recordingClient();
    script = () => ({ text: 'Noted.' });
    const openai = withEngram(sdk.make(), { client });
    const say = (space: string, content: string) =>
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], engram: { space } });

    await say(alice, 'My cat is called Mochi and she is ginger.');
    await say(bob, 'My dog is called Biscuit.');
    await openai.flush();
    await learned(client, alice);
    await learned(client, bob);
    const before = fake.requests.length;
    await say(bob, 'What is my cat called?');
    await say(alice, 'What is my cat called?');
    await openai.flush();

    const [bobs, alices] = fake.requests.slice(before);
    expect(bobs!.body).not.toHaveProperty('engram');
    expect(systemMessages(alices!).join('\n')).toContain('Mochi');
    expect(systemMessages(bobs!).join('\n')).not.toContain('Mochi');
    const listed = async (space: string) => {
      const { key } = await client.keys.create({ space, name: 'test' });
      const own = new Engram({ apiKey: key, baseURL: serverUrl(), logger: null });
      return (await own.memories.list()).memories.map((memory) => memory.text).join('\n');
    };
    expect(await listed(bob)).not.toMatch(/Mochi/);
    expect(await listed(alice)).toMatch(/Mochi/);
    expect(await listed(alice)).not.toMatch(/Biscuit/);
  });

  it("still answers when nothing listens at Engram's address", async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const warnings: unknown[] = [];
    script = () => ({ text: 'Hello there!' });
    const openai = withEngram(sdk.make(), { client, space: 'nobody', logger: { warn: (message) => warnings.push(message) } });
    const before = fake.requests.length;

    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi, remember me?' }],
    });
    const response = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hi again.' });
    await openai.flush();

    expect(completion.choices[0]!.message.content).toBe('Hello there!');
    expect(response.output_text).toBe('Hello there!');
    expect(systemMessages(fake.requests[before]!)).toEqual([]);
    expect(fake.requests[before + 1]!.body.instructions).toBeUndefined();
    expect(warnings.sort()).toEqual([
      '[engram] answering without memory: the context call failed',
      '[engram] answering without memory: the context call failed',
      '[engram] the conversation turn was not saved',
      '[engram] the conversation turn was not saved',
    ]);
  });

  it('still answers within the timeout when Engram stops answering', async () => {
    const silent = await silentServer();
    try {
      const client = new Engram({ apiKey: TEST_KEY, baseURL: silent.url, logger: null, maxRetries: 0, timeout: 200 });
      script = () => ({ text: 'Still here.' });
      const openai = withEngram(sdk.make(), { client, space: 'nobody', timeout: 200, logger: null, saveConversation: false });
      const stream = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Are you there?' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('Still here.');
    } finally {
      await silent.close();
    }
  });

  it('fails the call instead when failOpen is false, and the model is not called', async () => {
    const client = new Engram({ apiKey: TEST_KEY, baseURL: await closedPortUrl(), logger: null, maxRetries: 0 });
    const openai = withEngram(sdk.make(), { client, space: 'nobody', failOpen: false, logger: null });
    const before = fake.requests.length;
    await expect(openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toThrow();
    expect(fake.requests.length).toBe(before);
  });

  it('keeps withResponse(), saves once when the reply is read twice, and leaves a turn unsaved when asked', async () => {
    const space = freshSpace('gus');
    const { client, to } = recordingClient();
    script = () => ({ text: 'Sure.' });
    const openai = withEngram(sdk.make(), { client, space });

    const promise = openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'I collect old maps of Flanders.' }],
    });
    const { data, response } = await promise.withResponse();
    expect(data.choices[0]!.message.content).toBe('Sure.');
    expect(response.status).toBe(200);
    expect((await promise).choices[0]!.message.content).toBe('Sure.');
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Forget this one.' }],
      engram: { saveConversation: false },
    });
    await openai.flush();

    expect(to('POST', '/v1/memories').map((call) => (call.body!.messages as Array<{ content: string }>)[0]!.content)).toEqual([
      'I collect old maps of Flanders.',
    ]);
    expect(await savedTurns(client, space)).toHaveLength(1);
    // The rest of the client is the client's own.
    expect(openai).toBeInstanceOf({ 'openai 7': OpenAI7, 'openai 6': OpenAI6, 'openai 5': OpenAI5 }[sdk.name]!);
    expect(openai.baseURL).toBe(fake.baseURL);
  });
});

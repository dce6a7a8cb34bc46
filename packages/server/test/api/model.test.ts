import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnServer } from '../setup/own-server.js';
import { call, freshSpace } from './helpers.js';

/** One request the fake model server received. */
interface ModelRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } } };
  };
}

/**
 * A fake OpenAI-compatible server. What it answers depends on the words it is sent, so that
 * tests running side by side each get their own behaviour: "[malformed]" gets text that is not
 * JSON, "[slow]" an answer after the client's time-out, "[busy]" a 429.
 */
function fakeModel() {
  const requests: ModelRequest[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = JSON.parse(raw) as ModelRequest['body'];
      requests.push({ authorization: request.headers.authorization, body });
      const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
      const reply = (content: string) =>
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        });
      if (user.includes('[busy]')) {
        response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'slow down' } }));
        return;
      }
      if (user.includes('[slow]')) {
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(reply('{"facts":[]}')), 1_500);
        return;
      }
      if (user.includes('[malformed]')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(reply('Sure! Here are the facts: none'));
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(reply(JSON.stringify(answerFor(body.response_format.json_schema.name, user))));
    });
  });
  return { server, requests };
}

/** The scripted answers: every message becomes a fact "Model: …"; a listed memory about the same place word is updated. */
function answerFor(schema: string, user: string) {
  if (schema === 'questions') {
    const questions = [...user.matchAll(/^(\d+) \(\d{4}-\d{2}-\d{2}\) (\w+) lives in (\w+)\.$/gmu)].map((match) => ({
      question: `Where does ${match[2]} live?`,
      expected: match[3]!,
      memory_id: Number(match[1]),
    }));
    return { questions };
  }
  if (schema === 'marks') {
    const items = [...user.matchAll(/^\[(\d+)\] Question: .*\nExpected: (.*)\nAnswer: (.*)$/gmu)];
    return { marks: items.map((item) => ({ index: Number(item[1]), mark: item[3]!.includes(item[2]!) ? 'right' : 'wrong' })) };
  }
  if (schema === 'answer') {
    const ids = [...user.matchAll(/^(\d+) \(\d{4}-\d{2}-\d{2}\) (.*)$/gmu)];
    const lives = ids.find((match) => /lives in/u.test(match[2]!));
    if (user.includes('cite a stranger')) return { answer: 'Somewhere.', memory_ids: [999_999_999], clash: false };
    if (!lives) return { answer: null, memory_ids: [], clash: false };
    return { answer: lives[2]!.replace(/^.*lives in /u, '').trim(), memory_ids: [Number(lives[1])], clash: false };
  }
  const current = [...user.matchAll(/^(\d+) \(\d{4}-\d{2}-\d{2}\) (.*)$/gmu)];
  const facts = [...user.matchAll(/^\[(\d+)\] ([^(]+) \((\w+), [\d-]+\): (.*)$/gmu)].map((match) => {
    const said = match[4]!;
    const home = /I live in (\w+)/u.exec(said);
    const earlier = home ? current.find((memory) => /lives in/u.test(memory[2]!)) : undefined;
    return {
      text: home ? `${match[2]!.trim()} lives in ${home[1]}.` : `Model: ${said}`,
      kind: home ? 'detail' : 'pref',
      about: [match[2]!.trim()],
      message: Number(match[1]),
      quote: home ? home[0] : said,
      updates: earlier ? Number(earlier[1]) : null,
    };
  });
  return { facts };
}

describe('with a model (ENGRAM_LLM_*)', () => {
  const fake = fakeModel();
  let own: Awaited<ReturnType<typeof startOwnServer>>;
  let base: string;
  const on = (method: string, path: string, options: Parameters<typeof call>[2] = {}) =>
    call(method, path, { base, key: own.key, ...options });

  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const port = (fake.server.address() as AddressInfo).port;
    own = await startOwnServer({
      ENGRAM_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
      ENGRAM_LLM_API_KEY: 'sk-model-test-key',
      ENGRAM_LLM_MODEL: 'test-model',
      ENGRAM_LLM_TIMEOUT_MS: '400',
      ENGRAM_LLM_MAX_RETRIES: '0',
    });
    base = own.server.url;
  });
  afterAll(async () => {
    await own?.close();
    await new Promise((resolve) => (fake.server as Server).close(resolve));
  });

  async function save(space: string, messages: { name: string; content: string }[]) {
    const saved = await on('POST', '/v1/memories', {
      space,
      body: { messages: messages.map((message) => ({ role: 'user', at: '2026-11-20T10:00:00Z', ...message })) },
    });
    expect(saved.status).toBe(201);
    const waited = await on('GET', `/v1/sources/${saved.body.source.id}?wait=20`, { space });
    expect(waited.body.source.status).toBe('finished');
    const listed = await on('GET', '/v1/memories?limit=200', { space });
    return { source: waited.body.source, memories: listed.body.memories as { id: number; text: string; status: string }[] };
  }

  it("learns with one structured call per piece, in the model's words, each fact traced to its message", async () => {
    const space = freshSpace('model');
    const before = fake.requests.length;
    const { memories } = await save(space, [
      { name: 'Rosa', content: 'Honestly, green tea in the morning is the best thing ever.' },
      { name: 'Rosa', content: 'And I adore long walks along the canal.' },
    ]);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    const request = sent[0]!;
    expect(request.authorization).toBe('Bearer sk-model-test-key');
    expect(request.body.model).toBe('test-model');
    expect(request.body.response_format.type).toBe('json_schema');
    expect(request.body.response_format.json_schema.name).toBe('facts');
    expect(request.body.response_format.json_schema.strict).toBe(true);
    expect(Object.keys(request.body.response_format.json_schema.schema.properties)).toEqual(['facts']);
    const user = request.body.messages.find((message) => message.role === 'user')!.content;
    expect(user).toContain('[0] Rosa (user, 2026-11-20): Honestly, green tea in the morning is the best thing ever.');
    expect(user).toContain('[1] Rosa (user, 2026-11-20): And I adore long walks along the canal.');
    expect(memories.map((memory) => memory.text).sort()).toEqual([
      'Model: And I adore long walks along the canal.',
      'Model: Honestly, green tea in the morning is the best thing ever.',
    ]);
    const walks = memories.find((memory) => memory.text.includes('canal'))!;
    const detail = await on('GET', `/v1/memories/${walks.id}`, { space });
    expect(detail.body.sentence).toMatchObject({ text: 'And I adore long walks along the canal.', message_index: 1 });
  });

  it('shows the model the nearest current memories, and a fact it says updates one replaces it', async () => {
    const space = freshSpace('model-update');
    const first = await save(space, [{ name: 'Ivo', content: 'I live in Braga these days.' }]);
    const braga = first.memories.find((memory) => memory.text === 'Ivo lives in Braga.')!;
    expect(braga).toBeDefined();
    const before = fake.requests.length;
    const second = await save(space, [{ name: 'Ivo', content: 'Big news, I live in Faro now.' }]);
    const user = fake.requests[before]!.body.messages.find((message) => message.role === 'user')!.content;
    expect(user).toContain(`${braga.id} (2026-11-20) Ivo lives in Braga.`);
    expect(second.memories.map((memory) => memory.text)).toEqual(['Ivo lives in Faro.']);
    const old = await on('GET', `/v1/memories/${braga.id}`, { space });
    expect(old.body.memory.status).toBe('replaced');
    expect(old.body.history.map((event: { event: string }) => event.event)).toContain('replaced');
  });

  it.each([
    ['malformed JSON', '[malformed]'],
    ['a time-out', '[slow]'],
    ['a 429', '[busy]'],
  ])('learns offline what the model fails on (%s), and loses nothing', async (_, marker) => {
    const space = freshSpace('model-fallback');
    const { source, memories } = await save(space, [
      { name: 'Noor', content: `${marker} I really love baking sourdough bread on Sundays.` },
    ]);
    expect(source.status).toBe('finished');
    expect(memories.length).toBeGreaterThan(0);
    expect(memories.every((memory) => !memory.text.startsWith('Model:'))).toBe(true);
    expect(memories.some((memory) => /sourdough/u.test(memory.text))).toBe(true);
  });

  it('writes the answer of ask from the memories, citing the ones it used; offline when the model cites what it was not given', async () => {
    const space = freshSpace('model-ask');
    const { memories } = await save(space, [
      { name: 'Ivo', content: 'I live in Coimbra with two cats.' },
      { name: 'Ivo', content: 'Cycling to work keeps me sane.' },
    ]);
    const coimbra = memories.find((memory) => memory.text === 'Ivo lives in Coimbra.')!;
    const before = fake.requests.length;
    const asked = await on('POST', '/v1/ask', { space, body: { question: 'Where does Ivo live?' } });
    expect(asked.status).toBe(200);
    expect(asked.body.answer).toBe('Coimbra.');
    expect(asked.body.memories.map((memory: { id: number }) => memory.id)).toEqual([coimbra.id]);
    expect(asked.body.message).toContain('test-model');
    const request = fake.requests[before]!;
    expect(request.body.response_format.json_schema.name).toBe('answer');
    const user = request.body.messages.find((message) => message.role === 'user')!.content;
    expect(user).toContain('Question: Where does Ivo live?');
    expect(user).toContain(`${coimbra.id} (2026-11-20) Ivo lives in Coimbra.`);

    const stranger = await on('POST', '/v1/ask', { space, body: { question: 'Where does Ivo live? cite a stranger' } });
    expect(stranger.status).toBe(200);
    expect(stranger.body.message).not.toContain('test-model');
    expect(stranger.body.answer).not.toBe('Somewhere.');
  });

  it('asks no model when nothing stored bears on the question', async () => {
    const space = freshSpace('model-empty');
    await save(space, [{ name: 'Ivo', content: 'I live in Evora.' }]);
    const before = fake.requests.length;
    const asked = await on('POST', '/v1/ask', { space, body: { question: 'What is the boiling point of mercury?' } });
    expect(asked.body.answer).toBeNull();
    expect(fake.requests.length).toBe(before);
  });

  it('counts the tokens sent to and received from the model in usage, per space', async () => {
    const space = freshSpace('model-usage');
    const before = await on('GET', '/v1/usage', { space });
    expect(before.body).toMatchObject({ model_input_tokens: 0, model_output_tokens: 0 });
    await save(space, [{ name: 'Lea', content: 'I enjoy chess problems before bed.' }]);
    await on('POST', '/v1/ask', { space, body: { question: 'What does Lea enjoy?' } });
    const after = await on('GET', '/v1/usage', { space });
    // One learning call and one answer call, 120 and 30 tokens each.
    expect(after.body).toMatchObject({ model_input_tokens: 240, model_output_tokens: 60 });
  });

  it('writes and marks the memory test with the model, and answers its questions as ask does', async () => {
    const space = freshSpace('model-health');
    const { memories } = await save(space, [{ name: 'Ines', content: 'I live in Setubal near the river.' }]);
    const setubal = memories.find((memory) => memory.text === 'Ines lives in Setubal.')!;
    const before = fake.requests.length;
    const run = await on('POST', '/v1/memory-health/run', { space });
    expect(run.status).toBe(200);
    expect(run.body.health).toBe(1);
    expect(run.body.items).toEqual([
      { question: 'Where does Ines live?', expected: 'Setubal', answer: 'Setubal.', mark: 'right', memory_ids: [setubal.id] },
    ]);
    const schemas = fake.requests.slice(before).map((request) => request.body.response_format.json_schema.name);
    expect(schemas).toEqual(['questions', 'answer', 'marks']);
  });
});

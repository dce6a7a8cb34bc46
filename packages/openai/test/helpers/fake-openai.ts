import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model received: where to, and its JSON body. */
export interface ModelRequest {
  path: string;
  body: Record<string, unknown>;
}

/** What the fake model answers: a reply, or a call of a tool. */
export type Answer = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

/** The script of the fake model: what to answer to a request. */
export type Script = (request: ModelRequest) => Answer;

const created = 1_760_000_000;

function chatCompletion(answer: Answer, id: string) {
  const message =
    'text' in answer
      ? { role: 'assistant', content: answer.text, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: `call_${id}`,
              type: 'function',
              function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
            },
          ],
        };
  return {
    id,
    object: 'chat.completion',
    created,
    model: 'fake-model',
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'text' in answer ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function chatChunks(answer: Answer, id: string): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: 'fake-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  if (!('text' in answer)) {
    const call = {
      index: 0,
      id: `call_${id}`,
      type: 'function',
      function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
    };
    return [chunk({ role: 'assistant', content: null, tool_calls: [call] }, null), chunk({}, 'tool_calls')];
  }
  // The reply in word-sized pieces, so it has to be put together again.
  const pieces = answer.text.split(/(?<= )/);
  return [chunk({ role: 'assistant', content: '' }, null), ...pieces.map((piece) => chunk({ content: piece }, null)), chunk({}, 'stop')];
}

function response(answer: Answer, id: string) {
  const output =
    'text' in answer
      ? [
          {
            type: 'message',
            id: `msg_${id}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: answer.text, annotations: [] }],
          },
        ]
      : [
          {
            type: 'function_call',
            id: `fc_${id}`,
            call_id: `call_${id}`,
            name: answer.toolCall.name,
            arguments: JSON.stringify(answer.toolCall.arguments),
            status: 'completed',
          },
        ];
  return {
    id,
    object: 'response',
    created_at: created,
    status: 'completed',
    model: 'fake-model',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    temperature: 1,
    top_p: 1,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function responseEvents(answer: Answer, id: string): Array<{ type: string } & Record<string, unknown>> {
  const done = response(answer, id);
  const events: Array<{ type: string } & Record<string, unknown>> = [
    { type: 'response.created', response: { ...done, status: 'in_progress', output: [] } },
  ];
  if ('text' in answer) {
    for (const piece of answer.text.split(/(?<= )/)) {
      events.push({ type: 'response.output_text.delta', item_id: `msg_${id}`, output_index: 0, content_index: 0, delta: piece });
    }
  }
  events.push({ type: 'response.completed', response: done });
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}

/** A fake OpenAI-compatible server on 127.0.0.1: Chat Completions (plain and SSE) and Responses (plain and SSE). */
export async function fakeOpenAI(script: Script) {
  const requests: ModelRequest[] = [];
  let count = 0;
  const server = createServer(async (request, reply) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    const seen = { path, body };
    requests.push(seen);
    const id = `fake_${++count}`;
    const answer = script(seen);
    const sse = (items: unknown[], named: boolean) => {
      reply.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const item of items) {
        const event = named ? `event: ${(item as { type: string }).type}\n` : '';
        reply.write(`${event}data: ${JSON.stringify(item)}\n\n`);
      }
      if (!named) reply.write('data: [DONE]\n\n');
      reply.end();
    };
    const json = (value: unknown) => {
      reply.writeHead(200, { 'content-type': 'application/json' });
      reply.end(JSON.stringify(value));
    };
    if (path === '/v1/chat/completions') {
      if (body.stream) sse(chatChunks(answer, id), false);
      else json(chatCompletion(answer, id));
    } else if (path === '/v1/responses') {
      if (body.stream) sse(responseEvents(answer, id), true);
      else json(response(answer, id));
    } else {
      reply.writeHead(404, { 'content-type': 'application/json' });
      reply.end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    /** The requests to one path. */
    to: (path: string) => requests.filter((request) => request.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The system messages of a chat request. */
export const systemMessages = (request: ModelRequest) =>
  (request.body.messages as Array<{ role: string; content: string }>)
    .filter((message) => message.role === 'system')
    .map((message) => message.content);

import type { ClientOptions } from '../../src/index.js';
import { Engram } from '../../src/index.js';

/** One request as the injected fetch saw it. */
export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  /** The body as text ('' when none). */
  text: string;
  /** The body as sent (a string for JSON, a Blob for uploads). */
  body: unknown;
}

type Reply = (request: Recorded, index: number) => Response | Promise<Response>;

/** A fetch that records every request and answers with `reply`. */
export function recordingFetch(reply: Reply) {
  const calls: Recorded[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const body = init.body ?? null;
    const text = body === null ? '' : await new Response(body as BodyInit).text();
    const request: Recorded = { method: init.method ?? 'GET', url: new URL(input), headers: new Headers(init.headers), text, body };
    calls.push(request);
    return reply(request, calls.length - 1);
  };
  return { fetch, calls };
}

/** A JSON answer as the server gives it, with a request id. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': `req_${status}_test`, ...headers },
  });
}

/** The server's error body. */
export function errorBody(type: string, message: string, requestId = 'req_error_test', details?: unknown) {
  return { error: { type, message, request_id: requestId, ...(details === undefined ? {} : { details }) } };
}

export const FAKE_KEY = 'egk_fake_key_for_injected_fetch_tests_000000';

/** A client whose every call goes to `reply`, with no logging and no waiting between retries unless asked. */
export function fakeClient(reply: Reply, options: ClientOptions = {}) {
  const recorder = recordingFetch(reply);
  const engram = new Engram({ apiKey: FAKE_KEY, baseURL: 'http://engram.test', logger: null, fetch: recorder.fetch, ...options });
  return { engram, calls: recorder.calls };
}

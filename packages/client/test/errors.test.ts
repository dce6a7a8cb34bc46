import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../src/index.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  Engram,
  EngramError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnreadableError,
  UnsupportedMediaTypeError,
  UsagePausedError,
} from '../src/index.js';
import { source } from './helpers/fixtures.js';
import { errorBody, fakeClient, json } from './helpers/recording-fetch.js';
import type { TestServer } from './helpers/server.js';
import { clientOf, freshSpace, startTestServer, TEST_KEY } from './helpers/server.js';

/** A logger that keeps what it is given. */
function keepingLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    warn: (message, ...details) => lines.push([message, ...details.map((detail) => inspect(detail))].join(' ')),
    debug: (message, ...details) => lines.push([message, ...details.map((detail) => inspect(detail))].join(' ')),
  };
  return { logger, lines };
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('errors from a real server', () => {
  it('a wrong key is an AuthenticationError with the request id, logged once without the key', async () => {
    const { logger, lines } = keepingLogger();
    const wrongKey = 'egk_this_key_is_wrong_0000000000000000000000';
    const engram = new Engram({ apiKey: wrongKey, baseURL: server.url, logger });
    const error = await engram.memories.list().catch((caught: unknown) => caught);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    const authentication = error as AuthenticationError;
    expect(authentication.status).toBe(401);
    expect(authentication.type).toBe('authentication_error');
    expect(authentication.requestId).toMatch(/^req_/);
    expect(authentication.body).toMatchObject({ error: { type: 'authentication_error', request_id: authentication.requestId } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(authentication.requestId);
    expect(lines[0]).toContain('GET /v1/memories');
    for (const text of [
      lines[0]!,
      authentication.message,
      inspect(authentication, { depth: 5 }),
      JSON.stringify(authentication),
      String(authentication.stack),
    ]) {
      expect(text).not.toContain(wrongKey);
      expect(text).not.toContain(wrongKey.slice(4));
    }
  });

  it('a missing memory is a NotFoundError; a field out of limits a BadRequestError naming the field', async () => {
    const engram = clientOf(server).forSpace(freshSpace());
    const missing = await engram.memories.get(999_999).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).type).toBe('not_found');
    expect((missing as NotFoundError).message).toMatch(/^404 not_found: /);
    const invalid = await engram.memories.list({ limit: 500 }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect((invalid as BadRequestError).details).toMatchObject({ field: 'limit' });
  });

  it('never shows the key in JSON.stringify or util.inspect of the client', () => {
    const engram = clientOf(server).forSpace('user-1');
    const shown = [
      JSON.stringify(engram),
      inspect(engram, { depth: 10, showHidden: true }),
      inspect(engram.memories, { depth: 10, showHidden: true }),
      String(engram),
    ];
    for (const text of shown) expect(text).not.toContain(TEST_KEY);
    expect(JSON.parse(JSON.stringify(engram))).toEqual({ baseURL: server.url, space: 'user-1', maxRetries: 2, timeout: 60_000 });
  });
});

describe('errors by status, with an injected fetch', () => {
  const cases = [
    [400, 'invalid_request', BadRequestError],
    [401, 'authentication_error', AuthenticationError],
    [402, 'usage_paused', UsagePausedError],
    [403, 'permission_denied', PermissionDeniedError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [413, 'payload_too_large', PayloadTooLargeError],
    [415, 'unsupported_media_type', UnsupportedMediaTypeError],
    [422, 'unreadable', UnreadableError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', InternalServerError],
    [503, 'unavailable', InternalServerError],
  ] as const;

  for (const [status, type, ErrorClass] of cases) {
    it(`answers ${status} ${type} with ${ErrorClass.name}`, async () => {
      const { engram } = fakeClient(
        () => json(errorBody(type, `it is ${type}`, `req_${status}`, { field: 'x' }), status, { 'x-request-id': `req_${status}` }),
        { maxRetries: 0 },
      );
      const error = await engram.memories.add('x').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(ErrorClass.isInstance(error)).toBe(true);
      expect(APIError.isInstance(error)).toBe(true);
      expect(EngramError.isInstance(error)).toBe(true);
      const apiError = error as APIError;
      expect(apiError).toMatchObject({ status, type, requestId: `req_${status}`, details: { field: 'x' }, name: ErrorClass.name });
      expect(apiError.message).toBe(`${status} ${type}: it is ${type}`);
      for (const [, , Other] of cases)
        if (Other !== ErrorClass && Other !== InternalServerError) expect(Other.isInstance(error)).toBe(false);
    });
  }

  it('keeps an unexpected status as a plain APIError, with a body that is not JSON', async () => {
    const { engram } = fakeClient(() => new Response('I am a teapot', { status: 418, headers: { 'x-request-id': 'req_tea' } }));
    const error = (await engram.graph().catch((caught: unknown) => caught)) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error).toMatchObject({ status: 418, type: 'unknown', requestId: 'req_tea', body: 'I am a teapot' });
  });

  it('takes the request id from the body when the header is missing', async () => {
    const { engram } = fakeClient(
      () =>
        new Response(JSON.stringify(errorBody('not_found', 'gone', 'req_body')), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = (await engram.sources.get('src_x').catch((caught: unknown) => caught)) as NotFoundError;
    expect(error.requestId).toBe('req_body');
  });

  it("reads the source from a 422 answer's details", async () => {
    const failed = source({ status: 'failed', error: { type: 'unreadable', message: 'scanned image only' } });
    const { engram } = fakeClient(() => json(errorBody('unreadable', 'scanned image only', 'req_422', { source: failed }), 422));
    const error = (await engram.memories.add('x').catch((caught: unknown) => caught)) as UnreadableError;
    expect(error.source).toEqual(failed);
  });

  it('recognises errors from another copy of the package by their Symbol.for marker', () => {
    const foreign = Object.defineProperties(new Error('404 not_found: elsewhere'), {
      [Symbol.for('engram.error')]: { value: true },
      [Symbol.for('engram.error.APIError')]: { value: true },
      [Symbol.for('engram.error.NotFoundError')]: { value: true },
    });
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(APIError.isInstance(foreign)).toBe(true);
    expect(EngramError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
    expect(EngramError.isInstance(new Error('plain'))).toBe(false);
    expect(EngramError.isInstance(null)).toBe(false);
    expect(EngramError.isInstance('404')).toBe(false);
  });

  it('marks connection, timeout and abort errors as their own kinds', () => {
    expect(APITimeoutError.isInstance(new APIConnectionError())).toBe(false);
    expect(APIConnectionError.isInstance(new APITimeoutError())).toBe(true);
    expect(APIError.isInstance(new APIConnectionError())).toBe(false);
    expect(APIError.isInstance(new APIUserAbortError())).toBe(false);
    expect(EngramError.isInstance(new APIUserAbortError())).toBe(true);
  });

  it('logs a connection failure once with no request id, and never the key', async () => {
    const { logger, lines } = keepingLogger();
    const { engram } = fakeClient(
      () => {
        throw new TypeError('fetch failed');
      },
      { maxRetries: 0, logger },
    );
    await expect(engram.memories.add('x')).rejects.toBeInstanceOf(APIConnectionError);
    expect(lines).toEqual([
      expect.stringMatching(/^\[engram\] POST \/v1\/memories failed: Could not reach the Engram server: fetch failed \(request id none\)$/),
    ]);
  });

  it('logs a retried failure once, after its last retry, and each retry only at debug level', async () => {
    const warnings: string[] = [];
    const debugs: string[] = [];
    const { engram, calls } = fakeClient(
      (_, index) => json(errorBody('unavailable', 'busy', `req_${index}`), 503, { 'retry-after': '0', 'x-request-id': `req_${index}` }),
      { logger: { warn: (message) => warnings.push(message), debug: (message) => debugs.push(message) } },
    );
    await expect(engram.memories.add('x')).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(3);
    expect(warnings).toEqual(['[engram] POST /v1/memories failed after 2 retries: 503 unavailable: busy (request id req_2)']);
    expect(debugs).toHaveLength(2);
    for (const line of [...warnings, ...debugs]) expect(line).not.toContain('egk_');
  });

  it('does not log a call the caller aborted', async () => {
    const { logger, lines } = keepingLogger();
    const { engram } = fakeClient(() => json({}), { logger });
    await expect(engram.ask('x', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(lines).toEqual([]);
  });
});

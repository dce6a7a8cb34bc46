import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from '../src/index.js';
import { retryAfterMs, retryDelay } from '../src/internal/retry-delay.js';
import { source } from './helpers/fixtures.js';
import { errorBody, fakeClient, json } from './helpers/recording-fetch.js';

/** A retryable failure that asks for no wait, so tests do not sleep. */
const busy = (status = 503) => json(errorBody(status === 429 ? 'rate_limited' : 'unavailable', 'busy'), status, { 'retry-after': '0' });

afterEach(() => {
  vi.useRealTimers();
});

describe('retries', () => {
  it('retries a 5xx twice by default, then succeeds', async () => {
    const { engram, calls } = fakeClient((_, index) => (index < 2 ? busy(500) : json({ source: source() }, 201)));
    const saved = await engram.memories.add('x');
    expect(saved.source.id).toBe(source().id);
    expect(calls).toHaveLength(3);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { engram, calls } = fakeClient(() => busy(503));
    const error = await engram.memories.list().catch((caught: unknown) => caught);
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect((error as InternalServerError).status).toBe(503);
    expect(calls).toHaveLength(3);
  });

  it('retries 408, 409 and 429, and never 400 or 404', async () => {
    for (const status of [408, 409, 429]) {
      const { engram, calls } = fakeClient((_, index) => (index === 0 ? busy(status) : json({ sources: [], total: 0 })));
      await engram.sources.list();
      expect(calls).toHaveLength(2);
    }
    for (const [status, ErrorClass] of [
      [400, BadRequestError],
      [404, NotFoundError],
    ] as const) {
      const { engram, calls } = fakeClient(() => json(errorBody('x', 'no'), status));
      await expect(engram.sources.list()).rejects.toBeInstanceOf(ErrorClass);
      expect(calls).toHaveLength(1);
    }
  });

  it("follows the server's X-Should-Retry when it gives one", async () => {
    const { engram, calls } = fakeClient(() => json(errorBody('conflict', 'target exists'), 409, { 'x-should-retry': 'false' }));
    await expect(engram.files.move('/a', '/b')).rejects.toMatchObject({ status: 409 });
    expect(calls).toHaveLength(1);
  });

  it('retries connection errors, and throws APIConnectionError with the cause when they persist', async () => {
    const { engram, calls } = fakeClient(
      () => {
        throw new TypeError('fetch failed');
      },
      { maxRetries: 1 },
    );
    vi.useFakeTimers();
    const pending = engram.memories.list().catch((caught: unknown) => caught);
    await vi.runAllTimersAsync();
    const error = await pending;
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect((error as APIConnectionError).cause).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(2);
  });

  it('takes maxRetries per client and per call', async () => {
    const none = fakeClient(() => busy(), { maxRetries: 0 });
    await expect(none.engram.memories.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(none.calls).toHaveLength(1);
    const perCall = fakeClient(() => busy());
    await expect(perCall.engram.memories.list({}, { maxRetries: 4 })).rejects.toBeInstanceOf(InternalServerError);
    expect(perCall.calls).toHaveLength(5);
  });

  it('waits what Retry-After asks (in seconds) before retrying', async () => {
    vi.useFakeTimers();
    const { engram, calls } = fakeClient((_, index) =>
      index === 0 ? json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '3' }) : json({ sources: [], total: 0 }),
    );
    const pending = engram.sources.list();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect((await pending).total).toBe(0);
  });

  it('waits until a Retry-After HTTP date', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    const { engram, calls } = fakeClient((_, index) =>
      index === 0
        ? json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': 'Sun, 22 Nov 2026 10:00:05 GMT' })
        : json({ sources: [], total: 0 }),
    );
    const pending = engram.sources.list();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await pending;
  });

  it('throws RateLimitError once retries are spent on 429', async () => {
    const { engram } = fakeClient(() => busy(429), { maxRetries: 1 });
    const error = await engram.memories.list().catch((caught: unknown) => caught);
    expect(RateLimitError.isInstance(error)).toBe(true);
  });
});

describe('backoff', () => {
  it('honours Retry-After up to 60 s, in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2_000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('60', now)).toBe(60_000);
    expect(retryAfterMs('61', now)).toBeNull();
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:05:00 GMT', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('else waits 0.5 s × 2ⁿ capped at 8 s, less up to 25 % jitter', () => {
    const noJitter = () => 0;
    const fullJitter = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, null, noJitter))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(retryDelay(0, null, fullJitter)).toBeCloseTo(375, 0);
    expect(retryDelay(6, null, fullJitter)).toBeCloseTo(6_000, 0);
    expect(retryDelay(0, '120', noJitter)).toBe(500);
    expect(retryDelay(3, '1', noJitter)).toBe(1_000);
  });
});

describe('timeouts and abort', () => {
  const hang = (_: unknown) => new Promise<Response>(() => {});

  it('abandons an attempt after timeout, retries it, then throws APITimeoutError', async () => {
    const { engram, calls } = fakeClient(hang, { timeout: 20, maxRetries: 1 });
    vi.useFakeTimers();
    const pending = engram.memories.list().catch((caught: unknown) => caught);
    await vi.runAllTimersAsync();
    const error = await pending;
    expect(APITimeoutError.isInstance(error)).toBe(true);
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('takes a timeout per call', async () => {
    const { engram, calls } = fakeClient(hang, { maxRetries: 0 });
    vi.useFakeTimers();
    const pending = engram.memories.list({}, { timeout: 50 }).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(50);
    expect(APITimeoutError.isInstance(await pending)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('aborts a call in flight with its signal, without retrying', async () => {
    const { engram, calls } = fakeClient(hang);
    const controller = new AbortController();
    const pending = engram.ask('anything?', { signal: controller.signal }).catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    expect(APIUserAbortError.isInstance(await pending)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('aborts while waiting to retry', async () => {
    const { engram, calls } = fakeClient(() => json(errorBody('unavailable', 'busy'), 503, { 'retry-after': '30' }));
    const controller = new AbortController();
    const pending = engram.memories.list({}, { signal: controller.signal }).catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    expect(APIUserAbortError.isInstance(await pending)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('does not even send a call whose signal is already aborted', async () => {
    const { engram, calls } = fakeClient(() => json({}));
    await expect(engram.memories.add('x', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(0);
  });

  it('passes fetch an AbortSignal that fires on timeout', async () => {
    let seen: AbortSignal | undefined;
    const { engram } = fakeClient(() => json({}), {
      maxRetries: 0,
      timeout: 5,
      fetch: (_input, init) => {
        seen = init.signal ?? undefined;
        return new Promise<Response>((_, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      },
    });
    await expect(engram.memories.list()).rejects.toBeInstanceOf(APITimeoutError);
    expect(seen?.aborted).toBe(true);
  });
});

describe('idempotency keys', () => {
  it('sends one Idempotency-Key on every attempt of a write, and a new one for the next call', async () => {
    const { engram, calls } = fakeClient((_, index) => (index === 0 ? busy() : json({ source: source() }, 201)));
    await engram.memories.add('first');
    await engram.memories.add('second');
    const keys = calls.map((call) => call.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^idem_/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^idem_/);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("uses the caller's idempotencyKey when given", async () => {
    const { engram, calls } = fakeClient(() => json({ source: source() }, 201));
    await engram.memories.add('x', { idempotencyKey: 'order-17-note' });
    expect(calls[0]!.headers.get('idempotency-key')).toBe('order-17-note');
  });

  it('sends one on context and ask (they are metered), and none on search and briefing (free reads)', async () => {
    const { engram, calls } = fakeClient(() => json({}));
    await engram.context('q');
    await engram.ask('q');
    await engram.search('q');
    await engram.briefing();
    expect(calls.map((call) => call.headers.get('idempotency-key') !== null)).toEqual([true, true, false, false]);
  });

  it('sends none on reads and deletes', async () => {
    const { engram, calls } = fakeClient((request) =>
      request.method === 'DELETE'
        ? json({ id: 1, deleted: true })
        : json({ memories: [], counts: { all: 0, people: 0, plan: 0, pref: 0, detail: 0 }, total: 0 }),
    );
    await engram.memories.list();
    await engram.memories.delete(1);
    expect(calls.map((call) => call.headers.get('idempotency-key'))).toEqual([null, null]);
  });
});

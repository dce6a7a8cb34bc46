import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, EngramError } from '../errors.js';
import type { Fetch, Logger, RequestOptions } from '../options.js';
import { newIdempotencyKey } from './idempotency-key.js';
import type { QueryValue } from './query-string.js';
import { queryString } from './query-string.js';
import { retryDelay } from './retry-delay.js';
import { sleep } from './sleep.js';

/** One logical call of the API. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path from the base address, e.g. `/v1/memories`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as is (multipart uploads), the same bytes on every retry. */
  rawBody?: { data: Blob; contentType: string };
  /** The least time an attempt gets, for calls the server holds on purpose (`?wait=`). */
  minTimeout?: number;
  /**
   * A POST that only reads and is never metered (search, briefing): no `Idempotency-Key`,
   * since a retry cannot do anything twice and the server need not keep its answer.
   */
  readOnly?: boolean;
  /** Headers of this call that override the client's (e.g. a per-call `X-Memory-Space`). */
  headers?: Record<string, string>;
}

/** What a call answered, with the request id of the answer. */
export interface ApiResponse<T> {
  data: T;
  requestId: string | null;
  headers: Headers;
}

/** The settings of the transport, fixed when the client is made. */
export interface HttpClientSettings {
  apiKey: string;
  baseURL: string;
  space: string | undefined;
  maxRetries: number;
  timeout: number;
  fetch: Fetch | undefined;
  logger: Logger | null;
  defaultHeaders: Record<string, string>;
}

/** Methods that may change something: they carry an `Idempotency-Key`, the same on each retry. */
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

const RETRIED_STATUSES = new Set([408, 409, 429]);

function shouldRetry(response: Response): boolean {
  // The server may say outright; otherwise busy and server-side failures are retried.
  const told = response.headers.get('x-should-retry');
  if (told === 'true') return true;
  if (told === 'false') return false;
  return RETRIED_STATUSES.has(response.status) || response.status >= 500;
}

function parseBody(text: string, response: Response): unknown {
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The transport: builds each request, times attempts out, retries and logs failures once. */
export class HttpClient {
  readonly #settings: HttpClientSettings;

  constructor(settings: HttpClientSettings) {
    this.#settings = settings;
  }

  /** The client's space, sent as `X-Memory-Space` on every call. */
  get space(): string | undefined {
    return this.#settings.space;
  }

  /** Sends a call with its retries and returns the parsed body. */
  async request<T>(request: ApiRequest, options: RequestOptions = {}): Promise<T> {
    return (await this.requestWithResponse<T>(request, options)).data;
  }

  /** Sends a call with its retries and returns the parsed body with its request id and headers. */
  async requestWithResponse<T>(request: ApiRequest, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const settings = this.#settings;
    const maxRetries = options.maxRetries ?? settings.maxRetries;
    const url = `${settings.baseURL}${request.path}${queryString(request.query)}`;
    // Headers, not a plain object, so that a caller's `x-memory-space` replaces ours whatever its case.
    const headers = new Headers({ Accept: 'application/json' });
    const set = (values: Record<string, string> | undefined) =>
      Object.entries(values ?? {}).forEach(([name, value]) => headers.set(name, value));
    set(settings.defaultHeaders);
    if (settings.space !== undefined) headers.set('X-Memory-Space', settings.space);
    let body: BodyInit | undefined;
    if (request.rawBody) {
      headers.set('Content-Type', request.rawBody.contentType);
      body = request.rawBody.data;
    } else if (request.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(request.body);
    }
    if (WRITES.has(request.method) && !request.readOnly) headers.set('Idempotency-Key', options.idempotencyKey ?? newIdempotencyKey());
    set(request.headers);
    set(options.headers);
    headers.set('Authorization', `Bearer ${settings.apiKey}`);
    const timeout = Math.max(options.timeout ?? settings.timeout, request.minTimeout ?? 0);
    const label = `${request.method} ${request.path}`;

    for (let retriesDone = 0; ; retriesDone += 1) {
      let failure: EngramError;
      let retryAfter: string | null = null;
      let retryable: boolean;
      try {
        const { response, text } = await this.#attempt(url, { method: request.method, headers, body }, timeout, options.signal);
        const parsed = parseBody(text, response);
        const requestId = response.headers.get('x-request-id');
        if (response.ok) return { data: parsed as T, requestId, headers: response.headers };
        failure = APIError.generate(response.status, parsed, response.headers);
        retryable = shouldRetry(response);
        retryAfter = response.headers.get('retry-after');
      } catch (error) {
        if (APIUserAbortError.isInstance(error)) throw error;
        failure = EngramError.isInstance(error) ? error : new APIConnectionError(undefined, { cause: error });
        retryable = APIConnectionError.isInstance(failure);
      }
      if (retryable && retriesDone < maxRetries) {
        const delay = retryDelay(retriesDone, retryAfter);
        settings.logger?.debug?.(
          `[engram] ${label} failed (${failure.message}); retry ${retriesDone + 1} of ${maxRetries} in ${Math.round(delay)} ms`,
        );
        await sleep(delay, options.signal, () => new APIUserAbortError());
        continue;
      }
      this.#logFailure(label, failure, retriesDone);
      throw failure;
    }
  }

  /** One attempt: the fetch and the whole body, bounded by `timeout` and the caller's signal. */
  async #attempt(
    url: string,
    init: RequestInit,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; text: string }> {
    if (signal?.aborted) throw new APIUserAbortError();
    const controller = new AbortController();
    let settle: (error: EngramError) => void = () => {};
    // Racing the fetch means a fetch that ignores its signal still cannot hold the call.
    const stopped = new Promise<never>((_, reject) => {
      settle = reject;
    });
    const onAbort = () => {
      controller.abort();
      settle(new APIUserAbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      settle(new APITimeoutError(`The request timed out after ${timeout} ms`));
    }, timeout);
    const fetch = this.#settings.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
    try {
      const exchange = (async () => {
        const response = await fetch(url, { ...init, signal: controller.signal });
        return { response, text: await response.text() };
      })();
      exchange.catch(() => {});
      return await Promise.race([exchange, stopped]);
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: error });
      if (timedOut) throw new APITimeoutError(`The request timed out after ${timeout} ms`);
      if (EngramError.isInstance(error)) throw error;
      const code = (error as { cause?: { code?: unknown } })?.cause?.code;
      const reason = `${(error as Error)?.message ?? String(error)}${typeof code === 'string' ? ` (${code})` : ''}`;
      throw new APIConnectionError(`Could not reach the Engram server: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #logFailure(label: string, failure: EngramError, retriesDone: number): void {
    const logger = this.#settings.logger;
    if (!logger) return;
    const requestId = APIError.isInstance(failure) && failure.requestId ? failure.requestId : 'none';
    const retries = retriesDone ? ` after ${retriesDone} ${retriesDone === 1 ? 'retry' : 'retries'}` : '';
    logger.warn(`[engram] ${label} failed${retries}: ${failure.message} (request id ${requestId})`);
  }
}

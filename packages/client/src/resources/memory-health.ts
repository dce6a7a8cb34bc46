import type { MemoryHealthResponse } from '@engram/protocol';
import type { HttpClient } from '../internal/http-client.js';
import type { RequestOptions } from '../options.js';
import type { SpaceParams } from '../params.js';

/**
 * The nightly memory test: call it for the last result, or `.run()` to test now.
 * @example
 * const { health, items } = await engram.memoryHealth();
 * await engram.memoryHealth.run();
 */
export interface MemoryHealth {
  /** The last test's result (`health` is null before the first test). */
  (params?: SpaceParams, options?: RequestOptions): Promise<MemoryHealthResponse>;
  /** Runs the test now (account key) and returns its result. */
  run(params?: SpaceParams, options?: RequestOptions): Promise<MemoryHealthResponse>;
}

/** `engram.memoryHealth`, callable with a `run` method. */
export function memoryHealth(http: HttpClient): MemoryHealth {
  const get = (params: SpaceParams = {}, options?: RequestOptions) =>
    http.request<MemoryHealthResponse>({ method: 'GET', path: '/v1/memory-health', query: { ...params } }, options);
  const run = (params: SpaceParams = {}, options?: RequestOptions) =>
    http.request<MemoryHealthResponse>({ method: 'POST', path: '/v1/memory-health/run', body: params }, options);
  return Object.assign(get, { run });
}

import type { DeleteSourceResponse, ListSourcesResponse, Source, SourceResponse } from '@engram/protocol';
import { APIUserAbortError, UnreadableError } from '../errors.js';
import type { HttpClient } from '../internal/http-client.js';
import { sleep } from '../internal/sleep.js';
import type { RequestOptions } from '../options.js';
import { Page, PagePromise } from '../page.js';
import type { SourceGetParams, SourceListParams, SourceWaitParams, SpaceParams } from '../params.js';

/** A page of sources, newest first. */
export type SourcesPage = Page<Source, ListSourcesResponse> & ListSourcesResponse;

/** Default of `sources.wait()` and `{ wait: true }`: two minutes. */
export const DEFAULT_WAIT_MS = 120_000;
/** The longest hold the server grants one GET (SPEC.md: wait 0 to 60 seconds). */
const MAX_SERVER_WAIT_SECONDS = 60;
/** Room for the answer to travel after the server's hold ends. */
const WAIT_SLACK_MS = 10_000;

const ENDED = new Set<Source['status']>(['finished', 'failed', 'waiting']);

/** What was added (notes, pages, conversations, files) and how its learning stands. */
export class Sources {
  readonly #http: HttpClient;

  /** Made by `new Engram()`; reach it as `engram.sources`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Lists sources, newest first; await for one page or iterate for all.
   * @example for await (const source of engram.sources.list()) console.log(source.id, source.status);
   */
  list(params: SourceListParams = {}, options?: RequestOptions): PagePromise<SourcesPage, Source> {
    const fetchPage = (cursor: number) =>
      this.#http.request<ListSourcesResponse>({ method: 'GET', path: '/v1/sources', query: { ...params, cursor } }, options);
    const first = params.cursor ?? 0;
    return new PagePromise(async () => new Page(await fetchPage(first), 'sources', first, fetchPage) as SourcesPage);
  }

  /**
   * One source; with `wait` (seconds, 0 to 60) the server holds the answer until learning ends.
   * @example const { source } = await engram.sources.get('src_…', { wait: 30 });
   */
  get(id: string, params: SourceGetParams = {}, options?: RequestOptions): Promise<SourceResponse> {
    const minTimeout = params.wait ? params.wait * 1000 + WAIT_SLACK_MS : undefined;
    return this.#http.request<SourceResponse>(
      { method: 'GET', path: `/v1/sources/${encodeURIComponent(id)}`, query: { ...params }, minTimeout },
      options,
    );
  }

  /**
   * Deletes a source and the memories only it taught.
   * @example await engram.sources.delete(source.id);
   */
  delete(id: string, params: SpaceParams = {}, options?: RequestOptions): Promise<DeleteSourceResponse> {
    return this.#http.request<DeleteSourceResponse>(
      { method: 'DELETE', path: `/v1/sources/${encodeURIComponent(id)}`, query: { ...params } },
      options,
    );
  }

  /**
   * Waits until a source is `finished`, `waiting` (over the plan) or `failed`, or until
   * `timeout` ms pass, and returns it as it then stands. A source that failed as unreadable
   * throws `UnreadableError` carrying it.
   * @example const source = await engram.sources.wait(saved.source.id, { timeout: 30_000 });
   */
  async wait(id: string, params: SourceWaitParams = {}, options: RequestOptions = {}): Promise<Source> {
    const deadline = Date.now() + (params.timeout ?? DEFAULT_WAIT_MS);
    for (;;) {
      const remaining = deadline - Date.now();
      const seconds = Math.min(MAX_SERVER_WAIT_SECONDS, Math.max(0, Math.ceil(remaining / 1000)));
      const started = Date.now();
      const answer = await this.#http.requestWithResponse<SourceResponse>(
        {
          method: 'GET',
          path: `/v1/sources/${encodeURIComponent(id)}`,
          query: { wait: seconds, space: params.space },
          minTimeout: seconds * 1000 + WAIT_SLACK_MS,
        },
        options,
      );
      const source = answer.data.source;
      if (source.status === 'failed' && source.error?.type === 'unreadable') throw UnreadableError.fromSource(source, answer.requestId);
      if (ENDED.has(source.status) || Date.now() >= deadline) return source;
      // A server that answers before its hold is up must not be polled in a tight loop.
      if (Date.now() - started < 250)
        await sleep(Math.min(500, Math.max(0, deadline - Date.now())), options.signal, () => new APIUserAbortError());
    }
  }
}

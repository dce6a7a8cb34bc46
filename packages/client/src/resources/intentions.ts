import type { IntentionResponse, IntentionsResponse } from '@engram/protocol';
import type { HttpClient } from '../internal/http-client.js';
import type { RequestOptions } from '../options.js';
import type { IntentionListParams, IntentionUpdateParams } from '../params.js';

/** Promises and plans found in what was saved, with their triggers. */
export class Intentions {
  readonly #http: HttpClient;

  /** Made by `new Engram()`; reach it as `engram.intentions`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Lists intentions by status (default open).
   * @example const { intentions } = await engram.intentions.list({ status: 'open' });
   */
  list(params: IntentionListParams = {}, options?: RequestOptions): Promise<IntentionsResponse> {
    return this.#http.request<IntentionsResponse>({ method: 'GET', path: '/v1/intentions', query: { ...params } }, options);
  }

  /**
   * Sets an intention's status (default done).
   * @example await engram.intentions.update(7, { status: 'dropped' });
   */
  update(id: number, params: IntentionUpdateParams = {}, options?: RequestOptions): Promise<IntentionResponse> {
    return this.#http.request<IntentionResponse>(
      { method: 'POST', path: `/v1/intentions/${encodeURIComponent(id)}`, body: params },
      options,
    );
  }
}

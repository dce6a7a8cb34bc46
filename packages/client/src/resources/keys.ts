import type { CreatedKey, ListKeysResponse, RevokeKeyResponse } from '@engram/protocol';
import type { HttpClient } from '../internal/http-client.js';
import type { RequestOptions } from '../options.js';
import type { KeyCreateParams, SpaceParams } from '../params.js';

/** Keys limited to one space, to hand to that user's own app or device (account key only). */
export class Keys {
  readonly #http: HttpClient;

  /** Made by `new Engram()`; reach it as `engram.keys`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Makes a key limited to the client's space (or `space`); its text is in `key`, shown this once.
   * @example const { key } = await engram.forSpace(user.id).keys.create({ name: 'phone', rpm: 60 });
   */
  create(params: KeyCreateParams = {}, options?: RequestOptions): Promise<CreatedKey> {
    return this.#http.request<CreatedKey>({ method: 'POST', path: '/v1/keys', body: params }, options);
  }

  /**
   * Lists the keys limited to the space.
   * @example const { keys } = await engram.forSpace(user.id).keys.list();
   */
  list(params: SpaceParams = {}, options?: RequestOptions): Promise<ListKeysResponse> {
    return this.#http.request<ListKeysResponse>({ method: 'GET', path: '/v1/keys', query: { ...params } }, options);
  }

  /**
   * Revokes a key at once.
   * @example await engram.forSpace(user.id).keys.revoke(3);
   */
  revoke(id: number, params: SpaceParams = {}, options?: RequestOptions): Promise<RevokeKeyResponse> {
    return this.#http.request<RevokeKeyResponse>(
      { method: 'DELETE', path: `/v1/keys/${encodeURIComponent(id)}`, query: { ...params } },
      options,
    );
  }
}

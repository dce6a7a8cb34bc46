import type { EraseSpaceResponse, ListSpacesResponse, SpaceRow } from '@engram/protocol';
import { EngramError } from '../errors.js';
import type { HttpClient } from '../internal/http-client.js';
import type { RequestOptions } from '../options.js';
import { Page, PagePromise } from '../page.js';
import type { SpaceListParams } from '../params.js';

/** A page of the account's spaces. */
export type SpacesPage = Page<SpaceRow, ListSpacesResponse> & ListSpacesResponse;

/** The account's spaces: one per end user (account key only). */
export class Spaces {
  readonly #http: HttpClient;

  /** Made by `new Engram()`; reach it as `engram.spaces`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Lists the account's spaces; await for a page or iterate for all.
   * @example for await (const space of engram.spaces.list()) console.log(space.name, space.memories);
   */
  list(params: SpaceListParams = {}, options?: RequestOptions): PagePromise<SpacesPage, SpaceRow> {
    const fetchPage = (cursor: number) =>
      this.#http.request<ListSpacesResponse>({ method: 'GET', path: '/v1/spaces', query: { ...params, cursor } }, options);
    const first = params.cursor ?? 0;
    return new PagePromise(async () => new Page(await fetchPage(first), 'spaces', first, fetchPage) as SpacesPage);
  }

  /**
   * Erases a space for good: every source, file, memory, intention, lesson, episode, state,
   * health record and every key limited to it. With no argument, the client's own space.
   * @example await engram.spaces.erase(user.id);
   */
  erase(space?: string, options?: RequestOptions): Promise<EraseSpaceResponse> {
    const named = space ?? this.#http.space;
    if (named === undefined || named.trim() === '') {
      return Promise.reject(new EngramError('Name the space to erase: spaces.erase(userId), or call it on engram.forSpace(userId)'));
    }
    return this.#http.request<EraseSpaceResponse>({ method: 'DELETE', path: '/v1/space', query: { space } }, options);
  }
}

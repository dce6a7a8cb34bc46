import type { DeleteFilesResponse, FileListResponse, FileResponse, FileRow, MoveFilesResponse, WriteFileResponse } from '@engram/protocol';
import type { HttpClient } from '../internal/http-client.js';
import { waitIfAsked } from '../internal/wait-if-asked.js';
import type { RequestOptions, SaveOptions } from '../options.js';
import { Page, PagePromise } from '../page.js';
import type { FileDeleteByPrefixParams, FileListParams, FileWriteParams, SpaceParams } from '../params.js';
import type { Sources } from './sources.js';

/** A page of files in path order. */
export type FilesPage = Page<FileRow, FileListResponse> & FileListResponse;

/** The answer of deleting one file. */
export type FileDeleteResponse = Extract<DeleteFilesResponse, { path: string }>;

/** The answer of deleting by prefix: how many went, and whether more are left. */
export type FileDeleteByPrefixResponse = Extract<DeleteFilesResponse, { more: boolean }>;

/** Plain-text files kept under a path; what they say is learned, and a rewrite learns only what changed. */
export class Files {
  readonly #http: HttpClient;
  readonly #sources: Sources;

  /** Made by `new Engram()`; reach it as `engram.files`. */
  constructor(http: HttpClient, sources: Sources) {
    this.#http = http;
    this.#sources = sources;
  }

  /**
   * Writes (or replaces) the file at `path`.
   * @example await engram.files.write({ path: '/notes/today.md', text: '# Today\nCall Ana.', labels: { team: 'core' } });
   */
  async write(params: FileWriteParams, options: SaveOptions = {}): Promise<WriteFileResponse> {
    const written = await this.#http.request<WriteFileResponse>({ method: 'PUT', path: '/v1/files', body: params }, options);
    return { ...written, source: await waitIfAsked(this.#sources, written.source, params.space, options) };
  }

  /**
   * Reads one file.
   * @example const { text } = await engram.files.read('/notes/today.md');
   */
  read(path: string, params: SpaceParams = {}, options?: RequestOptions): Promise<FileResponse> {
    return this.#http.request<FileResponse>({ method: 'GET', path: '/v1/files', query: { path, ...params } }, options);
  }

  /**
   * Lists files under a prefix (default "/", all) in path order; await for a page or iterate for all.
   * @example for await (const file of engram.files.list({ prefix: '/notes/' })) console.log(file.path, file.size);
   */
  list(params: FileListParams = {}, options?: RequestOptions): PagePromise<FilesPage, FileRow> {
    const { prefix = '/', ...rest } = params;
    const fetchPage = (cursor: number) =>
      this.#http.request<FileListResponse>({ method: 'GET', path: '/v1/files', query: { prefix, ...rest, cursor } }, options);
    const first = params.cursor ?? 0;
    return new PagePromise(async () => new Page(await fetchPage(first), 'files', first, fetchPage) as FilesPage);
  }

  /**
   * Deletes one file, its text and every memory learned only from it.
   * @example await engram.files.delete('/notes/today.md');
   */
  delete(path: string, params: SpaceParams = {}, options?: RequestOptions): Promise<FileDeleteResponse> {
    return this.#http.request<FileDeleteResponse>({ method: 'DELETE', path: '/v1/files', query: { path, ...params } }, options);
  }

  /**
   * Deletes every file whose path starts with `prefix`, calling again while the server says
   * `more` (it deletes up to 100 a call); `{ once: true }` makes a single call.
   * @example const { deleted } = await engram.files.deleteByPrefix('/drafts/');
   */
  async deleteByPrefix(
    prefix: string,
    params: FileDeleteByPrefixParams = {},
    options?: RequestOptions,
  ): Promise<FileDeleteByPrefixResponse> {
    const { once, ...query } = params;
    let deleted = 0;
    for (;;) {
      const answer = await this.#http.request<FileDeleteByPrefixResponse>(
        { method: 'DELETE', path: '/v1/files', query: { prefix, ...query } },
        options,
      );
      deleted += answer.deleted;
      // A call that deletes nothing yet says `more` must not loop for ever.
      if (once || !answer.more || answer.deleted === 0) return { ...answer, deleted };
    }
  }

  /**
   * Moves a file, or every file beneath `from/` to the same place beneath `to/`; nothing
   * moves when any target path holds a file (`ConflictError`).
   * @example await engram.files.move('/drafts/plan.md', '/plans/plan.md');
   */
  move(from: string, to: string, params: SpaceParams = {}, options?: RequestOptions): Promise<MoveFilesResponse> {
    return this.#http.request<MoveFilesResponse>({ method: 'POST', path: '/v1/files/move', body: { from, to, ...params } }, options);
  }
}

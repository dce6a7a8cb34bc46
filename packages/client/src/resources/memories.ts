import type {
  BatchResponse,
  CorrectMemoryResponse,
  DeleteMemoryResponse,
  ListMemoriesResponse,
  Memory,
  MemoryDetailResponse,
  SourceResponse,
} from '@engram/protocol';
import { UnreadableError } from '../errors.js';
import type { HttpClient } from '../internal/http-client.js';
import { multipartBody } from '../internal/multipart.js';
import { toFilePart } from '../internal/to-blob.js';
import { waitIfAsked } from '../internal/wait-if-asked.js';
import type { RequestOptions, SaveOptions } from '../options.js';
import { Page, PagePromise } from '../page.js';
import type {
  MemoryAddParams,
  MemoryBatchParams,
  MemoryCorrectParams,
  MemoryListParams,
  MemoryUploadParams,
  SpaceParams,
} from '../params.js';
import type { Sources } from './sources.js';

/** A page of memories, newest first, with the counts by kind. */
export type MemoriesPage = Page<Memory, ListMemoriesResponse> & ListMemoriesResponse;

/** What is saved (notes, pages, conversations, files) and the facts learned from it. */
export class Memories {
  readonly #http: HttpClient;
  readonly #sources: Sources;

  /** Made by `new Engram()`; reach it as `engram.memories`. */
  constructor(http: HttpClient, sources: Sources) {
    this.#http = http;
    this.#sources = sources;
  }

  /**
   * Saves a note, a web page (`url`) or a conversation (`messages`) to learn from.
   * @example
   * await engram.memories.add('Ana moved to Porto in March.');
   * const { source } = await engram.memories.add({ messages }, { wait: true }); // once learned
   */
  async add(params: MemoryAddParams | string, options: SaveOptions = {}): Promise<SourceResponse> {
    const body = typeof params === 'string' ? { text: params } : params;
    const saved = await this.#http.request<SourceResponse>({ method: 'POST', path: '/v1/memories', body }, options);
    return { ...saved, source: await waitIfAsked(this.#sources, saved.source, body.space, options) };
  }

  /**
   * Lists current memories, newest first; await for one page (with `counts`) or iterate for all.
   * @example for await (const memory of engram.memories.list({ kind: 'people' })) console.log(memory.text);
   */
  list(params: MemoryListParams = {}, options?: RequestOptions): PagePromise<MemoriesPage, Memory> {
    const fetchPage = (cursor: number) =>
      this.#http.request<ListMemoriesResponse>({ method: 'GET', path: '/v1/memories', query: { ...params, cursor } }, options);
    const first = params.cursor ?? 0;
    return new PagePromise(async () => new Page(await fetchPage(first), 'memories', first, fetchPage) as MemoriesPage);
  }

  /**
   * One memory, the sentence it came from, and its history.
   * @example const { memory, sentence, history } = await engram.memories.get(42);
   */
  get(id: number, params: SpaceParams = {}, options?: RequestOptions): Promise<MemoryDetailResponse> {
    return this.#http.request<MemoryDetailResponse>(
      { method: 'GET', path: `/v1/memories/${encodeURIComponent(id)}`, query: { ...params } },
      options,
    );
  }

  /**
   * Corrects a memory: it is marked wrong and never used again; what is right is learned from a new source.
   * @example await engram.memories.correct(42, 'Ana moved to Lisbon, not Porto.', { wait: true });
   */
  async correct(id: number, params: MemoryCorrectParams | string, options: SaveOptions = {}): Promise<CorrectMemoryResponse> {
    const body = typeof params === 'string' ? { text: params } : params;
    const corrected = await this.#http.request<CorrectMemoryResponse>(
      { method: 'PATCH', path: `/v1/memories/${encodeURIComponent(id)}`, body },
      options,
    );
    return { ...corrected, source: await waitIfAsked(this.#sources, corrected.source, body.space, options) };
  }

  /**
   * Forgets a memory for good.
   * @example await engram.memories.delete(42);
   */
  delete(id: number, params: SpaceParams = {}, options?: RequestOptions): Promise<DeleteMemoryResponse> {
    return this.#http.request<DeleteMemoryResponse>(
      { method: 'DELETE', path: `/v1/memories/${encodeURIComponent(id)}`, query: { ...params } },
      options,
    );
  }

  /**
   * Saves up to 100 items; each succeeds or fails on its own (`results` in the order sent).
   * With `{ wait }`, every saved source is waited for; one unreadable source does not throw,
   * it comes back `failed` in its row.
   * @example const { added, failed, results } = await engram.memories.batch({ items: [{ text: 'A' }, { text: 'B' }] });
   */
  async batch(params: MemoryBatchParams, options: SaveOptions = {}): Promise<BatchResponse> {
    const answer = await this.#http.request<BatchResponse>({ method: 'POST', path: '/v1/memories/batch', body: params }, options);
    if (!options.wait) return answer;
    const results = await Promise.all(
      answer.results.map(async (row) => {
        if (!row.ok) return row;
        const space = params.items[row.index]?.space ?? params.space;
        try {
          return { ...row, source: await waitIfAsked(this.#sources, row.source, space, options) };
        } catch (error) {
          if (UnreadableError.isInstance(error) && error.source) return { ...row, source: error.source };
          throw error;
        }
      }),
    );
    return { ...answer, results };
  }

  /**
   * Uploads a PDF or Word (.docx) file to learn from: a path, bytes, a Blob or a stream.
   * @example
   * await engram.memories.upload({ file: './contract.pdf', title: 'Lease' }, { wait: true });
   * await engram.memories.upload({ file: fs.createReadStream('notes.docx') });
   */
  async upload(params: MemoryUploadParams, options: SaveOptions = {}): Promise<SourceResponse> {
    const part = await toFilePart(params.file, { filename: params.filename, contentType: params.contentType });
    const rawBody = multipartBody({ title: params.title, project: params.project, space: params.space }, { name: 'file', part });
    const saved = await this.#http.request<SourceResponse>({ method: 'POST', path: '/v1/memories/file', rawBody }, options);
    return { ...saved, source: await waitIfAsked(this.#sources, saved.source, params.space, options) };
  }
}

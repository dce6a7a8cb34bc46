import type { Engram, SearchParams } from '@engram/client';
import type { QueryBundle } from '@llamaindex/core/query-engine';
import { BaseRetriever } from '@llamaindex/core/retriever';
import type { NodeWithScore } from '@llamaindex/core/schema';
import { TextNode } from '@llamaindex/core/schema';
import { MAX_QUESTION_CHARS, textOf } from './internal/messages.js';

/** One memory as Engram's recall returns it. */
export type RecalledMemory = Awaited<ReturnType<Engram['search']>>['memories'][number];

/** The metadata of each node `EngramRetriever` returns. */
export interface EngramNodeMetadata {
  [key: string]: unknown;
  /** The memory's id in Engram (an integer), for `memories.get()`, corrections and citations. */
  memory_id: number;
  /** `people`, `plan`, `pref` or `detail`. */
  kind: RecalledMemory['kind'];
  /** The day it was said or written (YYYY-MM-DD). */
  date: string;
  /** The id of the source it was learned from. */
  source_id: string;
  /** How that source came in: `note`, `page`, `conversation`, `pdf`, `docx` or `file`. */
  source_kind: RecalledMemory['source']['kind'];
  /** The source's title, or null. */
  source_title: string | null;
  /** Its place in Engram's ranking, from 1. */
  rank: number;
}

/** Options of `new EngramRetriever()`. */
export interface EngramRetrieverOptions {
  /** The Engram client. A client made with `forSpace()` or a limited key already names the user. */
  client: Engram;
  /** The space (one end user's memory) to recall from. Default: the client's. */
  space?: string;
  /** Most memories per query, 1 to 50. Default 10 (the server's). */
  k?: number;
  /** Only memories of this kind. Default `all`. */
  kind?: SearchParams['kind'];
  /** Only memories whose source carries all these labels. */
  labels?: Record<string, string>;
}

/** Metadata kept out of the text the LLM reads: ids help the app, not the model. */
const HIDDEN_FROM_LLM = ['memory_id', 'source_id', 'source_kind', 'source_title', 'rank'];

/** The node of one recalled memory. */
export function memoryNode(memory: RecalledMemory, rank: number): NodeWithScore<EngramNodeMetadata> {
  const metadata: EngramNodeMetadata = {
    memory_id: memory.id,
    kind: memory.kind,
    date: memory.date,
    source_id: memory.source.id,
    source_kind: memory.source.kind,
    source_title: memory.source.title,
    rank,
  };
  const node = new TextNode<EngramNodeMetadata>({
    id_: `engram-memory-${memory.id}`,
    text: memory.text,
    metadata,
    excludedLlmMetadataKeys: HIDDEN_FROM_LLM,
    excludedEmbedMetadataKeys: HIDDEN_FROM_LLM,
  });
  // Engram scores recall 0..1; should a server leave the score out, the rank still orders the nodes.
  const score = typeof memory.score === 'number' ? memory.score : 1 / rank;
  return { node, score };
}

/**
 * A LlamaIndex retriever over one user's Engram memory: `retrieve({ query })` gives the memories
 * that bear on the query, best first, as `TextNode`s with their Engram ids and a score.
 * Use it wherever LlamaIndex takes a retriever (`ContextChatEngine`, `RetrieverQueryEngine`).
 * A failed recall throws (an `@engram/client` error), so the app decides what to do.
 * @example
 * const retriever = new EngramRetriever({ client: new Engram(), space: user.id, k: 5 });
 * const chat = new ContextChatEngine({ retriever, chatModel: llm });
 */
export class EngramRetriever extends BaseRetriever {
  readonly #client: Engram;
  readonly #space: string | undefined;
  readonly #k: number | undefined;
  readonly #kind: SearchParams['kind'] | undefined;
  readonly #labels: Record<string, string> | undefined;

  constructor(options: EngramRetrieverOptions) {
    super();
    this.#client = options.client;
    this.#space = options.space;
    this.#k = options.k;
    this.#kind = options.kind;
    this.#labels = options.labels;
  }

  /** Recalls the memories that bear on the query's text (the last 2,000 characters of it). */
  async _retrieve(params: QueryBundle): Promise<NodeWithScore[]> {
    const query = textOf(params.query).slice(-MAX_QUESTION_CHARS);
    if (query === '') return [];
    const { memories } = await this.#client.search({
      q: query,
      ...(this.#k !== undefined && { limit: this.#k }),
      ...(this.#kind !== undefined && { kind: this.#kind }),
      ...(this.#labels !== undefined && { labels: this.#labels }),
      ...(this.#space !== undefined && { space: this.#space }),
    });
    return memories.map((memory, index) => memoryNode(memory, index + 1));
  }
}

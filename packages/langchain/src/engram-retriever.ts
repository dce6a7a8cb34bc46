import type { Engram } from '@engram/client';
import { Document } from '@langchain/core/documents';
import type { BaseRetrieverInput } from '@langchain/core/retrievers';
import { BaseRetriever } from '@langchain/core/retrievers';
import { inSpace } from './internal/in-space.js';
import type { KindFilter, Labels, Memory } from './internal/types.js';

/** The metadata of a Document holding one memory (mode `search`). */
export interface EngramMemoryMetadata {
  /** The memory's id (an integer), for `engram.memories.get()`, `correct()` or `delete()`. */
  memory_id: number;
  /** people, plan, pref or detail. */
  kind: Memory['kind'];
  /** The day it was said or written (YYYY-MM-DD). */
  date: string;
  /** The source it was learned from ("src_…"). */
  source_id: string;
  /** note, page, conversation, pdf, docx or file. */
  source_kind: Memory['source']['kind'];
  /** The source's title (a file's path), or null. */
  source_title: string | null;
  /** Relevance, 0 to 1. */
  score: number;
  /** Place in the ranking, 1 for the best. */
  rank: number;
}

/** The metadata of the one Document of mode `context`. */
export interface EngramContextMetadata {
  /** Always 'context': the Document holds the whole block. */
  mode: 'context';
  /** True when nothing stored bears on the query (the block then says so in one sentence). */
  empty: boolean;
  /** The memories the block holds, best first. */
  memory_ids: number[];
}

/** Options of `new EngramRetriever()`. */
export interface EngramRetrieverInput extends BaseRetrieverInput {
  /** The Engram client; a client made with `forSpace()` or a limited key already names the user's space. */
  client: Engram;
  /** The space (one end user's memory) to recall from. Default: the client's own. */
  space?: string;
  /** Memories to return (mode `search`, 1 to 50, default 10) or to put in the block (mode `context`, 1 to 50, default 12). */
  k?: number;
  /** Only memories of this kind. Default: all. */
  kind?: KindFilter;
  /** Only memories learned from files that carry all these labels. */
  labels?: Labels;
  /**
   * `search` (default): one Document per memory, best first. `context`: one Document holding
   * Engram's prompt-ready block, a line per memory with its source and date.
   */
  mode?: 'search' | 'context';
}

/**
 * A LangChain retriever over one user's Engram memory: `invoke(query)` gives the memories that
 * bear on the query as Documents, best first (`pageContent` is the memory's text; `metadata`
 * holds `memory_id`, `kind`, `date`, `source_id`, `source_kind`, `score` and `rank`). It throws
 * when Engram cannot be reached, so the chain knows; add `.withFallbacks()` to answer without memory.
 * @example
 * const retriever = new EngramRetriever({ client: new Engram(), space: user.id, k: 5 });
 * const documents = await retriever.invoke('What does Ana eat?');
 */
export class EngramRetriever extends BaseRetriever<EngramMemoryMetadata | EngramContextMetadata> {
  static lc_name() {
    return 'EngramRetriever';
  }

  lc_namespace = ['engram', 'retrievers'];

  /** The Engram client. */
  readonly client: Engram;
  /** The space recalled from (undefined: the client's). */
  readonly space: string | undefined;
  /** Memories returned or put in the block. */
  readonly k: number | undefined;
  /** The kind filter. */
  readonly kind: KindFilter | undefined;
  /** The file labels filter. */
  readonly labels: Labels | undefined;
  /** `search` or `context`. */
  readonly mode: 'search' | 'context';

  constructor(fields: EngramRetrieverInput) {
    super(fields);
    this.client = fields.client;
    this.space = fields.space;
    this.k = fields.k;
    this.kind = fields.kind;
    this.labels = fields.labels;
    this.mode = fields.mode ?? 'search';
  }

  async _getRelevantDocuments(query: string): Promise<Document<EngramMemoryMetadata | EngramContextMetadata>[]> {
    const filters = {
      ...(this.k !== undefined && { limit: this.k }),
      ...(this.kind !== undefined && { kind: this.kind }),
      ...(this.labels !== undefined && { labels: this.labels }),
      ...inSpace(this.space),
    };
    if (this.mode === 'context') {
      const { context, empty, memories } = await this.client.context({ question: query, ...filters });
      const metadata: EngramContextMetadata = { mode: 'context', empty, memory_ids: memories.map((memory) => memory.id) };
      return [new Document({ pageContent: context, metadata })];
    }
    const { memories } = await this.client.search({ q: query, ...filters });
    return memories.map((memory, index) => memoryDocument(memory, index + 1));
  }
}

/** One memory as a Document. */
function memoryDocument(memory: Memory, rank: number): Document<EngramMemoryMetadata> {
  return new Document({
    id: String(memory.id),
    pageContent: memory.text,
    metadata: {
      memory_id: memory.id,
      kind: memory.kind,
      date: memory.date,
      source_id: memory.source.id,
      source_kind: memory.source.kind,
      source_title: memory.source.title,
      score: memory.score ?? 0,
      rank,
    },
  });
}

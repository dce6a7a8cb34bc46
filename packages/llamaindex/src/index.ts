/**
 * @engram/llamaindex: per-user long-term memory for LlamaIndex.TS (the `llamaindex` 0.12 line,
 * `@llamaindex/core` 0.6), backed by Engram.
 */

export type { EngramMemoryBlockOptions, MemoryLogger } from './engram-memory-block.js';
export { EngramMemoryBlock, engramBlock } from './engram-memory-block.js';
export type { EngramNodeMetadata, EngramRetrieverOptions, RecalledMemory } from './engram-retriever.js';
export { EngramRetriever, memoryNode } from './engram-retriever.js';

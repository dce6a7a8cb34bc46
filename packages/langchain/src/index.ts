/**
 * @engram/langchain: per-user long-term memory for LangChain and LangGraph, backed by Engram.
 */

export type { EngramChatMessageHistoryInput } from './engram-chat-message-history.js';
export { EngramChatMessageHistory } from './engram-chat-message-history.js';
export type { EngramContextMetadata, EngramMemoryMetadata, EngramRetrieverInput } from './engram-retriever.js';
export { EngramRetriever } from './engram-retriever.js';
export type { EngramStoreOptions } from './engram-store.js';
export { EngramStore } from './engram-store.js';
export type { EngramToolsOptions } from './engram-tools.js';
export { engramTools } from './engram-tools.js';

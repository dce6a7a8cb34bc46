/**
 * @engram/ai-sdk: per-user long-term memory for the Vercel AI SDK (ai 6 and 7), backed by Engram.
 */
export { engramMemory } from './engram-memory.js';
export type {
  EngramMemoryOptions,
  EngramMemoryMiddleware,
  EngramCallOptions,
  MemoryLogger,
  GenerateResultLike,
  StreamPartLike,
  StreamResultLike,
} from './engram-memory.js';
export type { CallOptionsLike, PromptMessage, PromptPart } from './internal/prompt.js';
export { engramTools } from './engram-tools.js';
export type { EngramToolsOptions } from './engram-tools.js';

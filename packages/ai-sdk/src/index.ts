/**
 * @engram/ai-sdk: per-user long-term memory for the Vercel AI SDK (ai 6 and 7), backed by Engram.
 */

export type {
  EngramCallOptions,
  EngramMemoryMiddleware,
  EngramMemoryOptions,
  GenerateResultLike,
  MemoryLogger,
  StreamPartLike,
  StreamResultLike,
} from './engram-memory.js';
export { engramMemory } from './engram-memory.js';
export type {
  AskMemoryInput,
  AskMemoryOutput,
  BriefingInput,
  BriefingOutput,
  EngramTools,
  EngramToolsOptions,
  RememberInput,
  RememberOutput,
  SearchMemoryInput,
  SearchMemoryOutput,
} from './engram-tools.js';
export { engramTools } from './engram-tools.js';
export type { CallOptionsLike, PromptMessage, PromptPart } from './internal/prompt.js';

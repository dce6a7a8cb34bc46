/**
 * @engram/openai: per-user long-term memory for the OpenAI client (`openai` 5, 6 and 7), backed by Engram.
 */

export type { EngramCallOptions, EngramControls, MemoryLogger, WithEngramOptions } from './with-engram.js';
export { withEngram } from './with-engram.js';

// What a model call reports without loading the model's client (openai), so that a process
// configured without a model never loads it.

/** Tokens one call (or several) sent and received. */
export interface ModelUsage {
  input: number;
  output: number;
}

/** Why a model call gave nothing usable; every one of them falls back to the offline path. */
export type ModelFailure = 'timeout' | 'rate_limited' | 'malformed' | 'refused' | 'failed';

/** A model call that gave nothing usable. `usage` is what it cost all the same. */
export class ModelError extends Error {
  constructor(
    readonly reason: ModelFailure,
    message: string,
    readonly usage: ModelUsage = { input: 0, output: 0 },
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

import type { ErrorType } from '@engram/protocol';

/**
 * A refusal the service's own rules make (nothing found, a conflict, a paused plan), thrown by
 * operations, metering and the learner's job handler whoever calls them. Only http/ turns it
 * into an answer (its status comes from the error type); the CLI prints its message.
 */
export class DomainError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

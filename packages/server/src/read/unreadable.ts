/**
 * A page or file that cannot be read. `permanent` says whether trying again could help:
 * a 404, a refused address or a damaged file never will; a reset connection or a 503 may.
 */
export class UnreadableError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UnreadableError';
    this.permanent = options.permanent ?? true;
  }

  static isInstance(error: unknown): error is UnreadableError {
    return error instanceof UnreadableError;
  }
}

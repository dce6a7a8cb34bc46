import type { ErrorType, Source } from '@engram/protocol';

type ErrorClass<T> = { readonly marker: string; readonly prototype: T };

/**
 * The root of every error the client throws. Check with `EngramError.isInstance(error)`
 * (or `NotFoundError.isInstance(error)`, …): it works across copies of the package, where
 * `instanceof` does not.
 */
export class EngramError extends Error {
  /** The `Symbol.for` key that marks instances of this class (and of its subclasses). */
  static readonly marker: string = 'engram.error';
  override name = 'EngramError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Mark the instance for this class and each parent, so isInstance works per class.
    for (let type: unknown = new.target; typeof (type as { marker?: unknown })?.marker === 'string'; type = Object.getPrototypeOf(type)) {
      Object.defineProperty(this, Symbol.for((type as { marker: string }).marker), { value: true, enumerable: false });
      if (type === EngramError) break;
    }
  }

  /**
   * True when `value` is an error of this class, even one thrown by another copy of the package.
   * @example if (NotFoundError.isInstance(error)) return null;
   */
  static isInstance<T extends EngramError>(this: ErrorClass<T>, value: unknown): value is T {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[Symbol.for(this.marker)] === true;
  }
}

/** The error body the server answers with (`{ error: { type, message, request_id, details } }`). */
interface ErrorPayload {
  type?: unknown;
  message?: unknown;
  request_id?: unknown;
  details?: unknown;
}

function payloadOf(body: unknown): ErrorPayload {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null ? (error as ErrorPayload) : {};
}

/** The server answered with an error status. `requestId` finds the call in the server's log. */
export class APIError extends EngramError {
  static override readonly marker: string = 'engram.error.APIError';
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The API's error type, e.g. `not_found` (see DECISIONS.md). */
  readonly type: ErrorType | (string & {});
  /** The `X-Request-ID` of the failed call. */
  readonly requestId: string | null;
  /** The parsed response body (the raw text when it was not JSON). */
  readonly body: unknown;
  /** The error's `details` (for 400, the field at fault). */
  readonly details: unknown;
  /** The response headers. */
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers, message?: string) {
    const payload = payloadOf(body);
    const type = typeof payload.type === 'string' ? payload.type : 'unknown';
    const text = typeof payload.message === 'string' ? payload.message : typeof body === 'string' && body ? body : 'no error message';
    super(message ?? `${status} ${type}: ${text}`);
    this.status = status;
    this.type = type;
    this.requestId = headers.get('x-request-id') ?? (typeof payload.request_id === 'string' ? payload.request_id : null);
    this.body = body;
    this.details = payload.details;
    this.headers = headers;
  }

  /** The error of the right class for a status. */
  static generate(status: number, body: unknown, headers: Headers): APIError {
    const ErrorOfStatus = STATUS_ERRORS[status] ?? (status >= 500 ? InternalServerError : APIError);
    return new ErrorOfStatus(status, body, headers);
  }
}

/** 400 invalid_request: a field out of its limits, malformed JSON, space header and field disagreeing. */
export class BadRequestError extends APIError {
  static override readonly marker: string = 'engram.error.BadRequestError';
  override name = 'BadRequestError';
}

/** 401 authentication_error: no key, or a wrong, revoked or expired one. */
export class AuthenticationError extends APIError {
  static override readonly marker: string = 'engram.error.AuthenticationError';
  override name = 'AuthenticationError';
}

/** 402 usage_paused: a save while the account's usage is paused. */
export class UsagePausedError extends APIError {
  static override readonly marker: string = 'engram.error.UsagePausedError';
  override name = 'UsagePausedError';
}

/** 403 permission_denied: a limited key reaching outside its space, or managing keys. */
export class PermissionDeniedError extends APIError {
  static override readonly marker: string = 'engram.error.PermissionDeniedError';
  override name = 'PermissionDeniedError';
}

/** 404 not_found: no such memory, source, file, intention or key in this space. */
export class NotFoundError extends APIError {
  static override readonly marker: string = 'engram.error.NotFoundError';
  override name = 'NotFoundError';
}

/** 409 conflict: e.g. a move whose target holds a file (nothing moved). */
export class ConflictError extends APIError {
  static override readonly marker: string = 'engram.error.ConflictError';
  override name = 'ConflictError';
}

/** 413 payload_too_large: a body or upload over its limit. */
export class PayloadTooLargeError extends APIError {
  static override readonly marker: string = 'engram.error.PayloadTooLargeError';
  override name = 'PayloadTooLargeError';
}

/** 415 unsupported_media_type: an upload that is neither PDF nor .docx. */
export class UnsupportedMediaTypeError extends APIError {
  static override readonly marker: string = 'engram.error.UnsupportedMediaTypeError';
  override name = 'UnsupportedMediaTypeError';
}

/**
 * A file or page that cannot be read: a 422 answer, or a source that ended `failed` with
 * an `unreadable` error while waiting. The reason is in `error.source.error`.
 * @example
 * try { await engram.memories.add({ url }, { wait: true }); }
 * catch (error) { if (UnreadableError.isInstance(error)) console.log(error.source?.error?.message); }
 */
export class UnreadableError extends APIError {
  static override readonly marker: string = 'engram.error.UnreadableError';
  override name = 'UnreadableError';
  /** The source that could not be read, when known. */
  readonly source: Source | null;

  constructor(status: number, body: unknown, headers: Headers, message?: string) {
    super(status, body, headers, message);
    const details = this.details as { source?: Source } | undefined;
    const source = (body as { source?: Source } | null)?.source ?? details?.source ?? null;
    this.source = typeof source === 'object' ? source : null;
  }

  /** The error for a source that ended `failed` with an `unreadable` error. */
  static fromSource(source: Source, requestId: string | null): UnreadableError {
    const headers = new Headers(requestId ? { 'x-request-id': requestId } : {});
    const message = `Source ${source.id} could not be read: ${source.error?.message ?? 'unreadable'}`;
    const body = { error: { type: 'unreadable', message: source.error?.message ?? message, request_id: requestId }, source };
    return new UnreadableError(422, body, headers, message);
  }
}

/** 429 rate_limited: over the key's requests a minute (retried after `Retry-After`). */
export class RateLimitError extends APIError {
  static override readonly marker: string = 'engram.error.RateLimitError';
  override name = 'RateLimitError';
}

/** 5xx internal_error or unavailable: something went wrong on the server (retried). */
export class InternalServerError extends APIError {
  static override readonly marker: string = 'engram.error.InternalServerError';
  override name = 'InternalServerError';
}

/** No answer: the server could not be reached or the connection broke (retried). */
export class APIConnectionError extends EngramError {
  static override readonly marker: string = 'engram.error.APIConnectionError';
  override name = 'APIConnectionError';

  constructor(message = 'Could not reach the Engram server', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An attempt took longer than its `timeout` (retried like a connection error). */
export class APITimeoutError extends APIConnectionError {
  static override readonly marker: string = 'engram.error.APITimeoutError';
  override name = 'APITimeoutError';

  constructor(message = 'The request timed out', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The call's `signal` was aborted (never retried). */
export class APIUserAbortError extends EngramError {
  static override readonly marker: string = 'engram.error.APIUserAbortError';
  override name = 'APIUserAbortError';

  constructor(message = 'The request was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

const STATUS_ERRORS: Record<number, new (status: number, body: unknown, headers: Headers) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: UsagePausedError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnreadableError,
  429: RateLimitError,
};

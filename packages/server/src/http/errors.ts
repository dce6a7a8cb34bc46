import type { ErrorType } from '@engram/protocol';
import { ERROR_STATUS } from '@engram/protocol';
import type { ZodError } from 'zod';
import { DomainError } from '../domain-error.js';
import { sqlStateOf } from '../store/store-errors.js';

/** The error class of the API; the error handler turns it (and any DomainError) into the JSON error shape. */
export class HttpError extends DomainError {
  readonly status: number;
  /** Whether trying the same request again may succeed; a permanent conflict says no. */
  readonly retryable: boolean;
  /** Headers the error answer carries (Retry-After, …). */
  readonly headers: Record<string, string>;
  constructor(
    type: ErrorType,
    message: string,
    details?: unknown,
    options: { retryable?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(type, message, details);
    this.name = 'HttpError';
    this.status = ERROR_STATUS[type];
    this.retryable = options.retryable ?? type !== 'conflict';
    this.headers = options.headers ?? {};
  }
}

/** The API's answer to a refusal of the service's rules: an HttpError as it is, a DomainError by its type. */
export function toHttpError(error: DomainError): HttpError {
  return error instanceof HttpError ? error : new HttpError(error.type, error.message, error.details);
}

/** 400 for a field out of its limits; `details` names the field. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError('invalid_request', `${field}: ${message}`, { field });
}

/** 400 from a failed schema check, naming the first field at fault. */
export function fromZodError(error: ZodError, where: string): HttpError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || where,
    message: issue.message,
  }));
  const first = issues[0] ?? { field: where, message: 'Invalid input' };
  return new HttpError('invalid_request', `${first.field}: ${first.message}`, { field: first.field, issues });
}

/**
 * Whether an error from the store is one that the same request, tried again, may well not
 * meet: a deadlock or serialization failure (the transaction was rolled back whole), a lock
 * or connection limit, a connection lost or the server shutting down. Such a request is
 * answered 503 `unavailable` with Retry-After, not 500.
 */
export function isTransientStoreError(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== undefined && /^(?:40001|40P01|55P03|53300|57P0[123]|08\w{3})$/.test(code);
}

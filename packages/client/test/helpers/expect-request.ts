import { expect } from 'vitest';
import type { Recorded } from './recording-fetch.js';

/** What a request must be: method, path, the whole query, and the JSON body (or none). */
export interface ExpectedRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string | null>;
  /** Whether an Idempotency-Key is sent; by default, on POST, PUT and PATCH. */
  idempotent?: boolean;
}

/** Asserts the exact method, path, query, body and the headers named of a recorded request. */
export function expectRequest(request: Recorded | undefined, expected: ExpectedRequest): void {
  expect(request, 'no request was sent').toBeDefined();
  expect(request!.method).toBe(expected.method);
  expect(request!.url.pathname).toBe(expected.path);
  expect(Object.fromEntries(request!.url.searchParams)).toEqual(expected.query ?? {});
  if (expected.body === undefined) {
    expect(request!.text).toBe('');
    expect(request!.headers.get('content-type')).toBeNull();
  } else {
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(request!.text)).toEqual(expected.body);
  }
  expect(request!.headers.get('authorization')).toMatch(/^Bearer eg[ks]_/);
  const write = expected.idempotent ?? ['POST', 'PUT', 'PATCH'].includes(expected.method);
  expect(request!.headers.get('idempotency-key') !== null).toBe(write);
  for (const [name, value] of Object.entries(expected.headers ?? {})) expect(request!.headers.get(name)).toBe(value);
}

import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

/** A call's outcome: status, headers and parsed JSON body. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  /** X-Memory-Space header. */
  space?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

/** Calls the real test server (or another, with `base`). */
export async function call<T = any>(method: string, path: string, options: CallOptions & { base?: string } = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? inject('engramKey') : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (options.space !== undefined) headers['X-Memory-Space'] = options.space;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${options.base ?? inject('engramUrl')}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${randomUUID()}`;

/** Saves and waits until learned; returns the finished source. */
export async function saveAndLearn(space: string, input: Record<string, unknown>) {
  const saved = await call('POST', '/v1/memories', { body: { ...input, space } });
  if (saved.status !== 201) throw new Error(`save failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  return waitLearned(space, saved.body.source.id);
}

/** Waits for a source to finish learning. */
export async function waitLearned(space: string, sourceId: string) {
  const waited = await call('GET', `/v1/sources/${sourceId}?wait=20&space=${encodeURIComponent(space)}`);
  if (waited.status !== 200 || waited.body.source.status !== 'finished') {
    throw new Error(`source did not finish: ${waited.status} ${JSON.stringify(waited.body)}`);
  }
  return waited.body.source;
}

/** Every current memory of a space (up to 200). */
export async function allMemories(space: string) {
  const listed = await call('GET', `/v1/memories?limit=200&space=${encodeURIComponent(space)}`);
  return listed.body.memories as { id: number; text: string; kind: string; about: string[]; status: string }[];
}

/** Asserts the JSON error shape and returns the error. */
export function expectError(reply: Reply, status: number, type: string) {
  const context = `${reply.status} ${JSON.stringify(reply.body)}`;
  if (reply.status !== status) throw new Error(`expected ${status} ${type}, got ${context}`);
  const error = reply.body?.error;
  if (!error || error.type !== type || typeof error.message !== 'string' || !/^req_/.test(error.request_id)) {
    throw new Error(`not the error shape for ${type}: ${context}`);
  }
  if (reply.headers.get('x-request-id') !== error.request_id) throw new Error('X-Request-ID differs from the body');
  return error as { type: string; message: string; request_id: string; details?: any };
}

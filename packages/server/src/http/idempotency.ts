import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Db } from '../store/database.js';
import { claimIdempotencyKey, keepAnswer, releaseIdempotencyKey, storedAnswer } from '../store/idempotency-repository.js';
import type { AppEnv } from './context.js';
import { HttpError } from './errors.js';
import { resolveScope, spaceHeader } from './space.js';

const MAX_IDEMPOTENCY_KEY_CHARS = 255;

const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * POSTs that only read (recall and briefings): they change nothing, so a retry simply asks
 * again, and their answers (memory text) are never kept.
 */
const READ_ONLY_POSTS = new Set(['/v1/search', '/v1/context', '/v1/ask', '/v1/briefing']);

/**
 * The body as a retry must repeat it. A multipart form gets a new random boundary each time
 * it is serialised, so the boundary is taken out: the same parts are the same request.
 */
function comparableBody(contentType: string | undefined, bytes: Uint8Array): Uint8Array {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary) return bytes;
  return new TextEncoder().encode(Buffer.from(bytes).toString('latin1').replaceAll(boundary, 'BOUNDARY'));
}

/** The `space` field of a JSON body, when it has one. */
function bodySpace(contentType: string | undefined, bytes: Uint8Array): string | undefined {
  if (!/^application\/json/i.test(contentType ?? '')) return undefined;
  try {
    const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
    const space = typeof body === 'object' && body !== null ? (body as { space?: unknown }).space : undefined;
    return typeof space === 'string' ? space : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A kept answer as replayed: a kept error names the call that replays it (`request_id`, as its
 * X-Request-ID header does, which finds this call in the request log), not the first one.
 */
function withThisRequestId(body: unknown, requestId: string): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { error } = body as { error?: unknown };
  if (typeof error !== 'object' || error === null || !('request_id' in error)) return body;
  return { ...body, error: { ...error, request_id: requestId } };
}

/**
 * What a key limited to one space may not do whatever was stored: reach the keys, or name
 * another space. Checked before any stored answer is looked at, so a replay never answers
 * what the route itself would refuse.
 */
function authoriseBeforeReplay(c: Context<AppEnv>, bytes: Uint8Array): void {
  if (c.get('caller').limitedTo === null) return;
  if (c.req.path === '/v1/keys' || c.req.path.startsWith('/v1/keys/')) {
    throw new HttpError('permission_denied', 'A key limited to one space cannot make, list or revoke keys');
  }
  resolveScope(c, bodySpace(c.req.header('Content-Type'), bytes));
}

/**
 * The answer as it may be kept: a new key's text is never stored. Returns the body to keep
 * and whether a secret was left out of it.
 */
function keptAnswer(answer: unknown): { body: unknown; secretWithheld: boolean } {
  if (typeof answer === 'object' && answer !== null && typeof (answer as { key?: unknown }).key === 'string') {
    const { key: _secret, ...rest } = answer as Record<string, unknown>;
    return { body: rest, secretWithheld: true };
  }
  return { body: answer, secretWithheld: false };
}

/**
 * Honours `Idempotency-Key` on POST, PUT and PATCH routes. Answers belong to the key that made
 * them: they are looked up by that key only, after it is authenticated and its space checked,
 * and kept for 24 hours. The first answer (below 500) is replayed to any retry of the same
 * request, so a retried save never saves twice; the same Idempotency-Key with a different
 * request is refused; a retry while the first is still running gets 409 and may retry again.
 * A new key's text is never kept: replaying its making answers 409 with the key's id.
 */
export const idempotency = ({ db }: { db: Db }): MiddlewareHandler<AppEnv> => {
  return async function idempotency(c, next) {
    const key = c.req.header('Idempotency-Key');
    if (!IDEMPOTENT_METHODS.has(c.req.method) || key === undefined) return next();
    if (!key.trim() || key.length > MAX_IDEMPOTENCY_KEY_CHARS) {
      throw new HttpError('invalid_request', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} characters`, {
        field: 'Idempotency-Key',
      });
    }
    if (c.req.method === 'POST' && READ_ONLY_POSTS.has(c.req.path)) return next();
    const { accountId, keyId } = c.get('caller');
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    authoriseBeforeReplay(c, bytes);
    const url = new URL(c.req.url);
    const space = spaceHeader(c) ?? null;
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${url.pathname}${url.search} ${space ?? ''}\n`)
      .update(comparableBody(c.req.header('Content-Type'), bytes))
      .digest('hex');
    const ref = { accountId, keyId, key };
    if (!(await claimIdempotencyKey(db, ref, fingerprint, space))) {
      const stored = await storedAnswer(db, ref);
      if (stored && stored.fingerprint !== fingerprint) {
        throw new HttpError('invalid_request', 'This Idempotency-Key was used for a different request', {
          field: 'Idempotency-Key',
        });
      }
      if (!stored || stored.status === null) {
        throw new HttpError('conflict', 'A request with this Idempotency-Key is still running; retry shortly', undefined, {
          retryable: true,
        });
      }
      c.header('Idempotent-Replayed', 'true');
      if (stored.secret_withheld) {
        throw new HttpError(
          'conflict',
          `This Idempotency-Key already made key ${String(stored.body?.id)}; its text was shown only in that answer. Revoke it and make another if it was lost`,
          { id: stored.body?.id, starts_with: stored.body?.starts_with },
        );
      }
      return c.json(withThisRequestId(stored.body, c.get('requestId')), stored.status as ContentfulStatusCode) as unknown as void;
    }
    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(db, ref);
      throw error;
    }
    // Answers that a retry could change (busy, rate limited, failed) are not kept.
    const status = c.res.status;
    if (status >= 500 || status === 409 || status === 429 || !c.res.headers.get('content-type')?.includes('application/json')) {
      await releaseIdempotencyKey(db, ref);
      return;
    }
    const kept = keptAnswer(await c.res.clone().json());
    await keepAnswer(db, ref, { status, body: kept.body, secretWithheld: kept.secretWithheld, space: c.get('space') ?? null });
  };
};

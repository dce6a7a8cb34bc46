import type { MiddlewareHandler } from 'hono';
import type { MeterContext } from '../meter/metering.js';
import { currentUsage } from '../meter/metering.js';
import { findKeyByHash, hashKey, TOUCH_EVERY_MS, touchKey } from '../store/account-repository.js';
import type { Db } from '../store/database.js';
import { newRequestId } from '../store/ids.js';
import { countRequest } from '../store/usage-repository.js';
import type { AppEnv } from './context.js';
import { HttpError } from './errors.js';

/** Gives every call a request id, answered in the X-Request-ID header whatever happens. */
export const requestId = ({ header = 'X-Request-ID' } = {}): MiddlewareHandler<AppEnv> =>
  async function requestId(c, next) {
    const id = newRequestId();
    c.set('requestId', id);
    c.header(header, id);
    await next();
    c.res.headers.set(header, id);
  };

/** Finds the caller from the bearer key: 401 for no key or a wrong, revoked or expired one. */
export const authenticate = ({ db, now = () => new Date() }: { db: Db; now?: () => Date }): MiddlewareHandler<AppEnv> =>
  async function authenticate(c, next) {
    const authorization = c.req.header('Authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new HttpError('authentication_error', 'Send your key in the Authorization header: Bearer <key>');
    const key = await findKeyByHash(db, hashKey(match[1]!));
    if (!key) throw new HttpError('authentication_error', 'The key is not valid');
    if (key.revokedAt) throw new HttpError('authentication_error', 'The key has been revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= now().getTime()) {
      throw new HttpError('authentication_error', 'The key has expired');
    }
    c.set('caller', { accountId: key.accountId, keyId: key.id, limitedTo: key.space, rpm: key.rpm });
    // The store writes it at most twice a minute; a key read as used just now spares the round trip.
    if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() >= TOUCH_EVERY_MS) await touchKey(db, key.id);
    await next();
  };

export { idempotency } from './idempotency.js';

/**
 * Holds each key to its requests a minute (a limited key's own rpm, else the account
 * default), counted in the database so that the limit holds across API processes.
 * Over it: 429 with Retry-After, the seconds until the minute turns.
 */
export const rateLimit = ({ db, accountRpm }: { db: Db; accountRpm: number }): MiddlewareHandler<AppEnv> =>
  async function rateLimit(c, next) {
    const caller = c.get('caller');
    const limit = caller.rpm ?? accountRpm;
    const { count, left } = await countRequest(db, caller.keyId);
    const retryAfter = String(Math.max(1, Math.ceil(left)));
    c.header('X-RateLimit-Limit', String(limit));
    c.header('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    if (count > limit) {
      throw new HttpError('rate_limited', `This key may make ${limit} requests a minute; retry in ${retryAfter} s`, undefined, {
        headers: { 'Retry-After': retryAfter, 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0' },
      });
    }
    await next();
  };

/** The usage figures on every answer, as X-Memory-Usage-* headers (a limited key sees its space's share). */
export const usageHeaders = ({ meter }: { meter: MeterContext }): MiddlewareHandler<AppEnv> =>
  async function usageHeaders(c, next) {
    await next();
    const caller = c.get('caller');
    const usage = await currentUsage(meter, caller.accountId, caller.limitedTo);
    const headers: [string, string | number][] = [
      ['Plan', usage.plan],
      ['State', usage.state],
      ['Learned-Tokens', usage.learned_tokens],
      ['Included-Tokens', usage.included_tokens],
      ['Waiting-Tokens', usage.waiting_tokens],
      ['Answers', usage.answers],
      ['Included-Answers', usage.included_answers],
    ];
    for (const [name, value] of headers) c.res.headers.set(`X-Memory-Usage-${name}`, String(value));
  };

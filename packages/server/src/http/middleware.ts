import type { Context, MiddlewareHandler } from 'hono';
import type { KnownUsage, MeterContext } from '../meter/metering.js';
import { afterSaves, currentUsage } from '../meter/metering.js';
import { periodOf, usageRecord } from '../meter/usage.js';
import { hashKey } from '../store/account-repository.js';
import type { Db } from '../store/database.js';
import { newRequestId } from '../store/ids.js';
import { admitCall, countRequest } from '../store/usage-repository.js';
import { admissionGroupsOf } from './admission.js';
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

/**
 * Finds the caller from the bearer key: 401 for no key or a wrong, revoked or expired one. The
 * same statement (store/usage-repository.ts `admitCall`) records the key's use, counts the
 * request for `rateLimit` and reads the account's usage for `usageHeaders`: one round trip
 * before the call's own work instead of four.
 */
export const authenticate = ({
  db,
  now = () => new Date(),
  grouped = false,
}: {
  db: Db;
  now?: () => Date;
  /** Calls that come together are admitted in one statement (http/admission.ts): on the embedded store. */
  grouped?: boolean;
}): MiddlewareHandler<AppEnv> =>
  async function authenticate(c, next) {
    const authorization = c.req.header('Authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new HttpError('authentication_error', 'Send your key in the Authorization header: Bearer <key>');
    const at = now();
    const hash = hashKey(match[1]!);
    const admission = grouped
      ? await admissionGroupsOf(db).admit(hash, at, periodOf(at).start)
      : await admitCall(db, hash, at, periodOf(at).start);
    if (!admission) throw new HttpError('authentication_error', 'The key is not valid');
    const { key } = admission;
    if (key.revokedAt) throw new HttpError('authentication_error', 'The key has been revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= at.getTime()) {
      throw new HttpError('authentication_error', 'The key has expired');
    }
    if (!admission.usage) throw new HttpError('authentication_error', "The key's account no longer exists");
    c.set('caller', { accountId: key.accountId, keyId: key.id, limitedTo: key.space, rpm: key.rpm });
    c.set('admission', { rate: admission.rate, usage: admission.usage, at });
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
    // Counted by `authenticate` with the key, else here.
    const { count, left } = c.get('admission')?.rate ?? (await countRequest(db, caller.keyId));
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

/** Calls that change no usage figure: their answer's usage is the one read with the key. */
const changesNoUsage = (method: string, path: string) => method === 'GET' || method === 'HEAD' || path === '/v1/search';

/**
 * The usage figures on every answer, as X-Memory-Usage-* headers (a limited key sees its space's
 * share), as they stand after the call: read with the key for a call that changes none or that
 * applied its own change to them (`settleSaves`), else read again.
 */
export const usageHeaders = ({ meter }: { meter: MeterContext }): MiddlewareHandler<AppEnv> =>
  async function usageHeaders(c, next) {
    await next();
    const caller = c.get('caller');
    const admitted = c.get('admission');
    const usage =
      admitted?.usage && (admitted.settled || changesNoUsage(c.req.method, c.req.path))
        ? usageRecord(meter.config, admitted.usage.account, admitted.usage.figures, admitted.at, admitted.usage.shown)
        : await currentUsage(meter, caller.accountId, caller.limitedTo);
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

/** The account's usage as `authenticate` read it with the key, for a save to be judged on without reading it again. */
export function knownUsage(c: Context<AppEnv>): KnownUsage | undefined {
  const admitted = c.get('admission');
  return admitted?.usage ? { snapshot: admitted.usage, at: admitted.at } : undefined;
}

/**
 * Applies what a call's saves change in the usage (waiting tokens of sources kept waiting) to the
 * figures read with the key, so that the usage headers show them as after the call without
 * reading them again.
 */
export function settleSaves(c: Context<AppEnv>, saved: readonly { space: string; status: string; tokens: number }[]): void {
  const admitted = c.get('admission');
  if (!admitted?.usage) return;
  c.set('admission', { ...admitted, usage: afterSaves(admitted.usage, c.get('caller').limitedTo, saved), settled: true });
}

import { Engram } from '@engram/client';
import type { NextFunction, Request, Response } from 'express';
import type { EngramRequestContext } from './engram-request.js';
import { KeyCache } from './internal/key-cache.js';

const MINUTE_MS = 60_000;

/** Options of `engramKeys()`. */
export interface EngramKeysOptions {
  /** A client holding the account key (`egk_…`); it never leaves the server. */
  client: Engram;
  /** The signed-in user's space, e.g. `(req) => req.user?.id`; nothing (or blank) means nobody is signed in. */
  spaceFor: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Requests a minute each user's key may make, 1 to 600. Default 60. */
  rpm?: number;
  /** Milliseconds a key lives. Default one hour. */
  ttl?: number;
  /** Milliseconds before its end a key is replaced by a new one. Default a quarter of `ttl`, at most 5 minutes. */
  renewBefore?: number;
  /** The keys' name, shown in `engram.keys.list()`. Default `engram-express`. */
  name?: string;
  /**
   * A path (under where the middleware is mounted) that answers GET with the user's key and
   * the address to use it at, for the user's browser or app, e.g. `/engram/key`. Default: none.
   */
  route?: string;
  /** The address the browser should call Engram at (e.g. where `engramProxy()` is mounted). Default: the client's. */
  publicBaseURL?: string;
  /** Answer 401 to a request without a signed-in user (true, the default); false lets it through without `req.engram`. */
  required?: boolean;
  /** Most users whose keys are kept in memory. Default 10 000. */
  maxCached?: number;
  /** The clock, in milliseconds (for tests). */
  now?: () => number;
}

/** What the route answers: the user's key and where to use it. */
export interface EngramKeyResponse {
  key: string;
  space: string;
  expires_at: string;
  base_url: string;
}

/** What `engram.keys.create()` answers. */
type CreatedKey = Awaited<ReturnType<Engram['keys']['create']>>;

interface UserKey {
  created: CreatedKey;
  client: Engram;
}

/**
 * Express middleware that gives each signed-in user a key limited to their own space: made on
 * first need, kept, renewed before it expires, never made twice at once for one user, and
 * revoked with `req.engram.revoke()`. Without a signed-in user it answers 401.
 * @example
 * app.use(engramKeys({ client: new Engram(), spaceFor: (req) => req.user?.id, route: '/engram/key' }));
 * app.post('/logout', async (req, res) => { await req.engram?.revoke(); res.sendStatus(204); });
 */
export function engramKeys(options: EngramKeysOptions) {
  const {
    client,
    spaceFor,
    rpm = 60,
    ttl = 60 * MINUTE_MS,
    name = 'engram-express',
    route,
    required = true,
    maxCached = 10_000,
    now = Date.now,
  } = options;
  const renewBefore = options.renewBefore ?? Math.min(5 * MINUTE_MS, ttl / 4);
  if (!(ttl > 0)) throw new TypeError('engramKeys: ttl must be a number of milliseconds above 0');
  if (!(renewBefore >= 0 && renewBefore < ttl)) throw new TypeError('engramKeys: renewBefore must be at least 0 and below ttl');
  const publicBaseURL = options.publicBaseURL ?? client.baseURL;
  const cache = new KeyCache<UserKey>(maxCached);

  async function makeKey(space: string) {
    const made = now();
    const created = await client.keys.create({ space, name, rpm, expires_at: new Date(made + ttl).toISOString() });
    const limited = new Engram({ apiKey: created.key, baseURL: client.baseURL, maxRetries: client.maxRetries, timeout: client.timeout });
    return { value: { created, client: limited }, renewAt: made + ttl - renewBefore };
  }

  async function revokeAll(space: string): Promise<void> {
    cache.forget(space);
    const { keys } = await client.keys.list({ space });
    await Promise.all(keys.filter((key) => key.name === name).map((key) => client.keys.revoke(key.id, { space })));
    // A request that made a key while these were revoked must not keep it.
    cache.forget(space);
  }

  return async function engramKeys(request: Request, response: Response, next: NextFunction): Promise<void> {
    const space = (await spaceFor(request))?.trim();
    if (!space) {
      if (!required) return next();
      response.status(401).json({ error: { type: 'authentication_error', message: 'Sign in first: Engram keys are for signed-in users' } });
      return;
    }
    const { created, client: limited } = await cache.get(space, now(), () => makeKey(space));
    const context: EngramRequestContext = {
      space,
      key: created.key,
      keyId: created.id,
      expiresAt: created.expires_at!,
      baseURL: client.baseURL,
      client: limited,
      revoke: () => revokeAll(space),
    };
    request.engram = context;
    if (route !== undefined && request.method === 'GET' && request.path === route) {
      const body: EngramKeyResponse = { key: created.key, space, expires_at: context.expiresAt, base_url: publicBaseURL };
      response.set('Cache-Control', 'no-store').json(body);
      return;
    }
    next();
  };
}

import type { NextFunction, Request, Response } from 'express';

/** Options of `engramProxy()`. */
export interface EngramProxyOptions {
  /** The `fetch` to reach Engram with. Default: the platform's. */
  fetch?: (input: string, init: RequestInit) => Promise<globalThis.Response>;
}

/** Request headers passed on to Engram; cookies and the caller's own Authorization are not. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'idempotency-key', 'x-memory-space'];
/** Answer headers passed back, besides the X-RateLimit-* and X-Memory-Usage-* families. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'x-request-id', 'retry-after', 'idempotent-replayed', 'x-should-retry'];

async function bodyOf(request: Request): Promise<BodyInit | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  // A body parser (express.json()) may already have read the stream.
  if (request.body !== undefined) {
    if (Buffer.isBuffer(request.body)) return new Uint8Array(request.body);
    return typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  }
  if (request.readableEnded) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined;
}

/**
 * Express middleware that forwards `/v1/*` calls to Engram for the signed-in user, with the key
 * `engramKeys()` gave them, so a page can use Engram from its own origin (Engram sends no CORS
 * headers). Mount it after `engramKeys()`; anything but `/v1/*` passes through.
 * @example
 * app.use('/engram', engramKeys({ client, spaceFor: (req) => req.user?.id, route: '/key', publicBaseURL: '/engram' }), engramProxy());
 */
export function engramProxy(options: EngramProxyOptions = {}) {
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));

  return async function engramProxy(request: Request, response: Response, next: NextFunction): Promise<void> {
    if (!request.url.startsWith('/v1/')) return next();
    const engram = request.engram;
    if (!engram) {
      response
        .status(401)
        .json({ error: { type: 'authentication_error', message: 'Sign in first: mount engramKeys() before engramProxy()' } });
      return;
    }
    const headers = new Headers({ authorization: `Bearer ${engram.key}` });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.get(name);
      if (value !== undefined) headers.set(name, value);
    }
    const body = await bodyOf(request);
    if (body !== undefined && typeof request.body === 'object' && !Buffer.isBuffer(request.body) && request.body !== null) {
      headers.set('content-type', 'application/json');
    }
    let answer: globalThis.Response;
    try {
      answer = await send(`${engram.baseURL}${request.url}`, { method: request.method, headers, body });
    } catch {
      response.status(502).json({ error: { type: 'unavailable', message: 'Engram could not be reached' } });
      return;
    }
    response.status(answer.status);
    answer.headers.forEach((value, name) => {
      if (FORWARDED_RESPONSE_HEADERS.includes(name) || name.startsWith('x-ratelimit-') || name.startsWith('x-memory-usage-')) {
        response.set(name, value);
      }
    });
    response.send(Buffer.from(await answer.arrayBuffer()));
  };
}

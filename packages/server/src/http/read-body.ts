import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './env.js';
import { HttpError } from './errors.js';

/**
 * Reads a request's body whole, up to `maxBytes`, straight from Node's `IncomingMessage`, and
 * gives it to Hono as already read (`c.req.bodyCache`: its bytes and its text), so that the
 * request's validation, idempotency check and route read it from there. Left to Hono, reading a
 * body first made a WHATWG `Request` around a web stream over the Node stream (undici's code),
 * which cost more of a search's time on the request thread than the search's own scoring did. The
 * text is decoded as `Request.text()` decodes it (UTF-8, a byte-order mark dropped, a malformed
 * sequence replaced), so a body reads the same either way. A body over the limit (by its
 * Content-Length or as it arrives) is refused with 413 as Hono's `bodyLimit` refuses it, with
 * `tooLarge`'s message; one cut off before its end with 400. Where the request did not come
 * through Node's HTTP server (`c.env.incoming` absent: an app called directly), Hono's own
 * `bodyLimit` does it as before.
 */
export function readBody({ maxBytes, tooLarge }: { maxBytes: number; tooLarge: string }): MiddlewareHandler<AppEnv> {
  const fallback = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpError('payload_too_large', tooLarge);
    },
  });
  return async function readBody(c, next) {
    const incoming = incomingOf(c);
    if (!incoming) return fallback(c, next);
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = incoming.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) throw new HttpError('payload_too_large', tooLarge);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of incoming as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw new HttpError('payload_too_large', tooLarge);
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError('invalid_request', 'The body was cut off before its end');
    }
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    // An ArrayBuffer of the body alone: a small chunk may be a view of a larger pooled one.
    const whole =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string> };
    cache.arrayBuffer = Promise.resolve(whole as ArrayBuffer);
    cache.text = Promise.resolve(utf8.decode(bytes));
    return next();
  };
}

const utf8 = new TextDecoder();

/** The Node request behind the call (`@hono/node-server` passes it as `c.env.incoming`), when there is one. */
function incomingOf(c: Context<AppEnv>): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming && typeof (incoming as IncomingMessage).on === 'function' ? (incoming as IncomingMessage) : undefined;
}

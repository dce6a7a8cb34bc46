import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { GuardOptions, ResolvedAddress } from './address-guard.js';
import { checkedAddress } from './address-guard.js';
import { UnreadableError } from './unreadable.js';

/** Limits and guard of a page read. */
export interface FetchOptions extends GuardOptions {
  /** Largest body, in bytes, after decompression. */
  maxBytes: number;
  /** Time for the whole read, redirects and body included, in milliseconds. */
  timeoutMs: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
}

/** What a page answered. */
export interface FetchedPage {
  /** The address the body came from, after redirects. */
  url: string;
  /** The media type without parameters, lower case; '' when none was sent. */
  mediaType: string;
  /** The charset parameter of Content-Type, if any. */
  charset: string | null;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Errors of a connection that a later try may not meet. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/** Parses a page address; only http and https are read. Throws UnreadableError otherwise. */
export function parsePageUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    throw new UnreadableError(`"${text.slice(0, 200)}" is not a web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnreadableError(`Only http and https addresses are read, not ${url.protocol}`);
  }
  if (!url.hostname) throw new UnreadableError('The address has no host');
  return url;
}

/** A lookup that answers every name with the one address the guard checked (no second DNS answer). */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/**
 * Reads a page once: checks every hop's address with the guard and connects to that very
 * address, follows at most `maxRedirects` redirects, stops past `maxBytes` or `timeoutMs`.
 * Throws UnreadableError; `permanent` is false only for what a later try may fix (a reset
 * connection, a 5xx, 429).
 */
export async function fetchPage(address: string, options: FetchOptions): Promise<FetchedPage> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new UnreadableError(`The page took longer than ${options.timeoutMs} ms to read`)),
    options.timeoutMs,
  );
  try {
    let url = parsePageUrl(address);
    for (let redirects = 0; ; redirects++) {
      const pinned = await abortable(checkedAddress(url.hostname, options), controller.signal);
      const response = await request(url, pinned, controller.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        response.resume();
        if (redirects >= options.maxRedirects) throw new UnreadableError(`The page redirected more than ${options.maxRedirects} times`);
        url = parsePageUrl(response.headers.location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        const transient = status >= 500 || status === 429 || status === 408;
        throw new UnreadableError(`The page answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`, {
          permanent: !transient,
        });
      }
      const declared = Number(response.headers['content-length']);
      const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding === 'identity' && Number.isFinite(declared) && declared > options.maxBytes) {
        response.resume();
        throw new UnreadableError(`The page is over ${options.maxBytes} bytes`);
      }
      const body = await readBody(response, encoding, options.maxBytes, controller.signal);
      const [mediaType = '', ...parameters] = String(response.headers['content-type'] ?? '').split(';');
      const charset = parameters.map((part) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(part)?.[1]).find(Boolean) ?? null;
      return { url: url.toString(), mediaType: mediaType.trim().toLowerCase(), charset, body };
    }
  } finally {
    clearTimeout(timer);
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

function connectionError(error: unknown, url: URL): UnreadableError {
  if (error instanceof UnreadableError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return new UnreadableError(`The page at ${url.host} could not be reached (${code || (error as Error).message})`, {
    permanent: !TRANSIENT_CODES.has(code),
    cause: error,
  });
}

function request(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      url,
      {
        method: 'GET',
        lookup: pinnedLookup(pinned),
        signal,
        headers: {
          'User-Agent': 'Engram/0.1 (+https://github.com/engram; reads a page once for its user)',
          Accept: 'text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, application/pdf;q=0.8, */*;q=0.1',
          'Accept-Encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    outgoing.on('error', (error) => reject(signal.aborted ? signal.reason : connectionError(error, url)));
    outgoing.end();
  });
}

function decoder(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}

/** Reads a body up to maxBytes after decompression (a small compressed body cannot grow past it). */
async function readBody(response: http.IncomingMessage, encoding: string, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const unpack = decoder(encoding);
  if (!unpack && encoding !== 'identity') {
    response.resume();
    throw new UnreadableError(`The page is sent in an unknown encoding (${encoding})`);
  }
  const stream: Readable = unpack ? response.pipe(unpack) : response;
  if (unpack) response.on('error', (error) => unpack.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new UnreadableError(`The page is over ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof UnreadableError) throw error;
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new UnreadableError('The page is damaged (its compression cannot be undone)', { cause: error });
    }
    throw new UnreadableError('The connection broke while the page was read', { permanent: false, cause: error });
  } finally {
    response.destroy();
    unpack?.destroy();
  }
  return Buffer.concat(chunks);
}

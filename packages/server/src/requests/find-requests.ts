import type { ListRequestsResponse, RequestLogRow } from '@engram/protocol';

/** What `engram requests` asks a running server for. */
export interface FindRequestsOptions {
  /** A request id (`req_…`), from an X-Request-ID header or an error body. */
  id?: string;
  /** An exact status (404) or a class (4xx). */
  status?: string;
  space?: string;
  route?: string;
  limit?: number;
  /** The server (ENGRAM_BASE_URL, default http://127.0.0.1:8787). */
  baseUrl?: string;
  /** An account key (ENGRAM_API_KEY). */
  apiKey?: string;
  fetch?: typeof fetch;
}

/**
 * Reads the request log through a running server's API: the embedded store is held by that
 * server, so the shell asks it rather than opening the store.
 */
export async function findRequests(options: FindRequestsOptions): Promise<RequestLogRow[]> {
  const base = (options.baseUrl ?? process.env.ENGRAM_BASE_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  const key = options.apiKey ?? process.env.ENGRAM_API_KEY;
  if (!key) throw new Error('set ENGRAM_API_KEY to an account key (and ENGRAM_BASE_URL to the server)');
  const query = new URLSearchParams();
  if (options.id !== undefined) query.set('request_id', options.id);
  if (options.status !== undefined) query.set('status', options.status);
  if (options.space !== undefined) query.set('space', options.space);
  if (options.route !== undefined) query.set('route', options.route);
  query.set('limit', String(options.limit ?? 50));
  const response = await (options.fetch ?? fetch)(`${base}/v1/requests?${query}`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json().catch(() => null)) as (ListRequestsResponse & { error?: { message: string } }) | null;
  if (!response.ok) throw new Error(`${response.status}: ${body?.error?.message ?? 'the server did not answer with the request log'}`);
  return body!.requests;
}

/** One line per call: time, method, route, status, space, key prefix, duration, error type and request id. */
export function formatRequests(rows: RequestLogRow[]): string {
  return rows
    .map((row) =>
      [
        row.at,
        row.method.padEnd(6),
        row.route,
        row.status,
        row.space === null ? '-' : row.space === '' ? '(owner)' : row.space,
        row.key_prefix,
        `${row.duration_ms}ms`,
        row.error_type ?? '-',
        row.request_id,
      ].join('  '),
    )
    .join('\n');
}

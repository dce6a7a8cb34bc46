/** The account key lives in this tab's session only: never localStorage, never a URL. */
const KEY_ITEM = 'engram-console-key';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  signIn: (key: string) => sessionStorage.setItem(KEY_ITEM, key),
  signOut: () => sessionStorage.removeItem(KEY_ITEM),
};

/** An error answer of the API, with its request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** Calls Engram's API on the same origin with the session's key. */
export async function api<T = any>(method: string, path: string, options: { body?: unknown; key?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.key ?? session.key() ?? ''}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      body?.error?.type ?? 'error',
      body?.error?.message ?? `The server answered ${response.status}`,
      response.headers.get('X-Request-ID'),
    );
  }
  return body as T;
}

/** A query string from the set fields. */
export function query(fields: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

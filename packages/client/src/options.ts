/** Where failed calls are reported; `console` fits. */
export interface Logger {
  /** Called once per failed call, with its request id; never with the key. */
  warn(message: string, ...details: unknown[]): void;
  /** Called before each retry, when present. */
  debug?(message: string, ...details: unknown[]): void;
}

/** The `fetch` the client calls: the platform's by default. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Options of `new Engram()`. */
export interface ClientOptions {
  /** An account key (`egk_…`) or a key limited to one space (`egs_…`). Default: `ENGRAM_API_KEY`. */
  apiKey?: string;
  /** The server's address. Default: `ENGRAM_BASE_URL`, else `http://127.0.0.1:8787`. */
  baseURL?: string;
  /** The space (one end user's memory) every call reaches, sent as `X-Memory-Space`. Default: the owner's own. */
  space?: string;
  /** Retries of a call after a connection error, 408, 409, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** Milliseconds each attempt may take before it is abandoned (and retried). Default 60 000. */
  timeout?: number;
  /** A `fetch` to use instead of the platform's (for tests, proxies, instrumentation). */
  fetch?: Fetch;
  /** Where failed calls are reported (once each, with their request id). Default `console.warn`; `null` silences. */
  logger?: Logger | null;
  /** Allow an account key in a browser, where anyone using the page can read it. Default false. */
  dangerouslyAllowBrowser?: boolean;
  /** Headers sent with every call. */
  defaultHeaders?: Record<string, string>;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the call (and any retry or wait in progress); it then throws `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take. Default: the client's `timeout`. */
  timeout?: number;
  /** Retries of this call. Default: the client's `maxRetries`. */
  maxRetries?: number;
  /** The `Idempotency-Key` of a write; made once per call when left out, and reused on its retries. */
  idempotencyKey?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** How long `{ wait }` holds a save before returning the source as it then stands. */
export interface WaitOptions {
  /** Milliseconds to wait for learning in all. Default 120 000. */
  timeout?: number;
}

/** Options of the methods that save something to learn from. */
export interface SaveOptions extends RequestOptions {
  /**
   * Return only once the source is learned (`finished`), `waiting` (over the plan) or
   * `failed`. A source that failed as unreadable throws `UnreadableError`.
   */
  wait?: boolean | WaitOptions;
}

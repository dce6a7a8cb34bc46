/** Everything the server reads from its environment, in one typed object. */
export interface Config {
  /** PostgreSQL connection string; when absent the embedded store (PGlite) is used. */
  databaseUrl: string | null;
  /** Where the embedded store keeps its files. `memory://` keeps it in memory. */
  dataDir: string;
  host: string;
  port: number;
  /** Account key made for the owner on first start; a new one is printed when absent. */
  bootstrapKey: string | null;
  /** In-process learning workers started by `engram serve` (0 to run API only). */
  workers: number;
  /** Largest JSON body accepted, in bytes. */
  maxBodyBytes: number;
  /** Requests a minute for account keys. */
  accountRpm: number;
  /** How often an idle worker looks for new jobs, in milliseconds. */
  pollMs: number;
  /** Attempts at learning a source before it fails. */
  maxAttempts: number;
  /** What each plan includes in a month (DECISIONS.md defaults; ENGRAM_PLAN_<PLAN>_TOKENS / _ANSWERS). */
  plans: Record<'free' | 'pro' | 'max', { tokens: number; answers: number }>;
  /** Default cap of extra learning for accounts that switch it on without one, in USD. */
  extraCapUsd: number;
  /** Read pages on loopback, private, link-local and metadata addresses (ENGRAM_ALLOW_PRIVATE_URLS=1); off by default. */
  allowPrivateUrls: boolean;
  /** Largest web page read by url, in bytes (after decompression). */
  urlMaxBytes: number;
  /** Time allowed for reading a page, redirects included, in milliseconds. */
  urlTimeoutMs: number;
  /** Redirects followed when reading a page. */
  urlMaxRedirects: number;
  /** Largest file accepted by POST /v1/memories/file, in bytes. */
  uploadMaxBytes: number;
  /** Origins allowed to call from a browser: '*' (default) or a comma-separated list. */
  corsOrigins: string;
  /** Memories an API process holds in its copies of spaces' search indexes (0: recall always reads the store). */
  recallCacheMemories: number;
  /** Threads that run the learner beside the thread answering requests (0: the same thread). */
  learnerThreads: number;
  /** Optional OpenAI-compatible model. */
  llm: { baseUrl: string; apiKey: string | null; model: string } | null;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function plan(env: Env, name: string, tokens: number, answers: number) {
  return {
    tokens: integer(env, `ENGRAM_PLAN_${name}_TOKENS`, tokens, 0, Number.MAX_SAFE_INTEGER),
    answers: integer(env, `ENGRAM_PLAN_${name}_ANSWERS`, answers, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** Reads the configuration from the environment (DECISIONS.md, "Running it"). */
export function loadConfig(env: Env = process.env): Config {
  const llmBaseUrl = env.ENGRAM_LLM_BASE_URL?.trim();
  return {
    databaseUrl: env.DATABASE_URL?.trim() || null,
    dataDir: env.ENGRAM_DATA_DIR?.trim() || './.engram',
    host: env.ENGRAM_HOST?.trim() || '127.0.0.1',
    port: integer(env, 'ENGRAM_PORT', 8787, 0, 65_535),
    bootstrapKey: env.ENGRAM_BOOTSTRAP_KEY?.trim() || null,
    workers: integer(env, 'ENGRAM_WORKERS', 1, 0, 64),
    maxBodyBytes: integer(env, 'ENGRAM_MAX_BODY_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    accountRpm: integer(env, 'ENGRAM_ACCOUNT_RPM', 3_000, 1, 1_000_000),
    pollMs: integer(env, 'ENGRAM_POLL_MS', 500, 10, 60_000),
    maxAttempts: integer(env, 'ENGRAM_MAX_ATTEMPTS', 5, 1, 100),
    plans: {
      free: plan(env, 'FREE', 1_000_000, 1_000),
      pro: plan(env, 'PRO', 20_000_000, 20_000),
      max: plan(env, 'MAX', 100_000_000, 100_000),
    },
    extraCapUsd: integer(env, 'ENGRAM_EXTRA_CAP_USD', 100, 0, 1_000_000),
    allowPrivateUrls: ['1', 'true', 'yes'].includes(env.ENGRAM_ALLOW_PRIVATE_URLS?.trim().toLowerCase() ?? ''),
    urlMaxBytes: integer(env, 'ENGRAM_URL_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    urlTimeoutMs: integer(env, 'ENGRAM_URL_TIMEOUT_MS', 15_000, 50, 600_000),
    urlMaxRedirects: integer(env, 'ENGRAM_URL_MAX_REDIRECTS', 5, 0, 20),
    uploadMaxBytes: integer(env, 'ENGRAM_UPLOAD_MAX_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    corsOrigins: env.ENGRAM_CORS_ORIGINS?.trim() || '*',
    recallCacheMemories: integer(env, 'ENGRAM_RECALL_CACHE_MEMORIES', 100_000, 0, 100_000_000),
    learnerThreads: integer(env, 'ENGRAM_LEARNER_THREADS', 1, 0, 64),
    llm: llmBaseUrl
      ? { baseUrl: llmBaseUrl, apiKey: env.ENGRAM_LLM_API_KEY?.trim() || null, model: env.ENGRAM_LLM_MODEL?.trim() || 'gpt-4o-mini' }
      : null,
  };
}

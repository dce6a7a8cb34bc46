import type { ModelConfig } from './model/model-client.js';

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
  /** How long a claimed job stays a worker's without a renewal, in seconds; a dead worker's job is taken over after it. */
  leaseSeconds: number;
  /** How often a working worker renews its lease, in milliseconds (a third of the lease by default). */
  heartbeatMs: number;
  /** How long a stopping process waits for requests and jobs in hand before it gives the jobs back, in milliseconds. */
  shutdownMs: number;
  /** How often waiting sources are released when a plan allows them and old counters are swept, in milliseconds. */
  rolloverMs: number;
  /** How often each process looks for periodic jobs that are due, in milliseconds. */
  periodicTickMs: number;
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
  /**
   * Name the statements run again and again on PostgreSQL, so each is parsed and planned once per
   * connection (ENGRAM_PREPARED_STATEMENTS=0 turns it off, for a transaction-mode connection pooler
   * that cannot keep them); on by default.
   */
  preparedStatements: boolean;
  /**
   * On PostgreSQL, processes signal each other with LISTEN/NOTIFY: a save wakes idle workers of
   * other processes, and learning brings other API processes' copies of the space's index up to
   * date (ENGRAM_PG_NOTIFY=0 turns it off, for a transaction-mode connection pooler that cannot
   * keep a LISTEN); on by default.
   */
  pgNotify: boolean;
  /** Threads that run the learner beside the thread answering requests (0: the same thread). */
  learnerThreads: number;
  /** The learner threads' scheduling priority (`nice`, 0 to 19): with the CPU busy, requests go first. */
  learnerNice: number;
  /** The local time of day ("HH:MM") the nightly memory test runs at (ENGRAM_HEALTH_TIME, default 03:00). */
  healthTime: string;
  /** The time zone of `healthTime` (ENGRAM_HEALTH_TZ, an IANA name, default UTC). */
  healthTimeZone: string;
  /** Days the request log keeps a call (ENGRAM_REQUEST_LOG_DAYS, default 14). */
  requestLogDays: number;
  /** Optional OpenAI-compatible model (ENGRAM_LLM_*; docs/model.md); null runs everything offline. */
  llm: ModelConfig | null;
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

function timeOfDay(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const found = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(raw);
  if (!found) throw new Error(`${name} must be a time of day as HH:MM (00:00 to 23:59), got "${raw}"`);
  return `${found[1]!.padStart(2, '0')}:${found[2]}`;
}

function timeZone(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: raw });
  } catch {
    throw new Error(`${name} must be an IANA time zone such as UTC or Europe/Lisbon, got "${raw}"`);
  }
  return raw;
}

/** Reads the configuration from the environment (DECISIONS.md, "Running it"). */
export function loadConfig(env: Env = process.env): Config {
  const llmBaseUrl = env.ENGRAM_LLM_BASE_URL?.trim();
  const leaseSeconds = integer(env, 'ENGRAM_LEASE_SECONDS', 30, 2, 3_600);
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
    leaseSeconds,
    heartbeatMs: integer(env, 'ENGRAM_HEARTBEAT_MS', Math.round((leaseSeconds * 1_000) / 3), 100, 3_600_000),
    shutdownMs: integer(env, 'ENGRAM_SHUTDOWN_MS', 20_000, 0, 3_600_000),
    rolloverMs: integer(env, 'ENGRAM_ROLLOVER_MS', 10_000, 100, 86_400_000),
    periodicTickMs: integer(env, 'ENGRAM_PERIODIC_TICK_MS', 1_000, 50, 3_600_000),
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
    preparedStatements: !['0', 'false', 'no', 'off'].includes(env.ENGRAM_PREPARED_STATEMENTS?.trim().toLowerCase() ?? ''),
    pgNotify: !['0', 'false', 'no', 'off'].includes(env.ENGRAM_PG_NOTIFY?.trim().toLowerCase() ?? ''),
    learnerThreads: integer(env, 'ENGRAM_LEARNER_THREADS', 1, 0, 64),
    learnerNice: integer(env, 'ENGRAM_LEARNER_NICE', 10, 0, 19),
    healthTime: timeOfDay(env, 'ENGRAM_HEALTH_TIME', '03:00'),
    healthTimeZone: timeZone(env, 'ENGRAM_HEALTH_TZ', 'UTC'),
    requestLogDays: integer(env, 'ENGRAM_REQUEST_LOG_DAYS', 14, 1, 3_650),
    llm: llmBaseUrl
      ? {
          baseUrl: llmBaseUrl,
          apiKey: env.ENGRAM_LLM_API_KEY?.trim() || null,
          model: env.ENGRAM_LLM_MODEL?.trim() || 'gpt-4o-mini',
          timeoutMs: integer(env, 'ENGRAM_LLM_TIMEOUT_MS', 30_000, 100, 600_000),
          maxRetries: integer(env, 'ENGRAM_LLM_MAX_RETRIES', 1, 0, 10),
          concurrency: integer(env, 'ENGRAM_LLM_CONCURRENCY', 4, 1, 256),
          perMinute: integer(env, 'ENGRAM_LLM_RPM', 500, 1, 1_000_000),
        }
      : null,
  };
}

import type {
  AskResponse,
  BriefingResponse,
  BriefResponse,
  ContextResponse,
  EpisodesResponse,
  GraphResponse,
  LessonsResponse,
  NowResponse,
  ProfileResponse,
  SearchResponse,
  UsageResponse,
} from '@engram/protocol';
import { EngramError } from './errors.js';
import { HttpClient } from './internal/http-client.js';
import { isBrowser } from './internal/is-browser.js';
import { readEnv } from './internal/read-env.js';
import type { ClientOptions, Logger, RequestOptions } from './options.js';
import type {
  AskParams,
  BriefingParams,
  BriefParams,
  ContextParams,
  EpisodesParams,
  GraphParams,
  LessonsParams,
  NowParams,
  ProfileParams,
  SearchParams,
  SpaceParams,
} from './params.js';
import { Files } from './resources/files.js';
import { Intentions } from './resources/intentions.js';
import { Keys } from './resources/keys.js';
import { Memories } from './resources/memories.js';
import type { MemoryHealth } from './resources/memory-health.js';
import { memoryHealth } from './resources/memory-health.js';
import { Sources } from './resources/sources.js';
import { Spaces } from './resources/spaces.js';

/** The server `ENGRAM_BASE_URL` defaults to. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
const MAX_SPACE_CHARS = 128;
const LIMITED_KEY_PREFIX = 'egs_';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Only Latin-1 travels in a header; anything else must go in the `space` field of each call. */
function checkSpace(space: string): string {
  if (space.trim() === '') throw new EngramError("A space name cannot be blank; leave it out for the owner's own memory");
  if (space.length > MAX_SPACE_CHARS) throw new EngramError(`A space name is at most ${MAX_SPACE_CHARS} characters`);
  if (/[^\u0020-\u007e\u00a0-\u00ff]/.test(space)) {
    throw new EngramError('This space name cannot be sent in the X-Memory-Space header; pass it as `space` on each call instead');
  }
  return space;
}

/**
 * The Engram client: per-user long-term memory over HTTP.
 * @example
 * const engram = new Engram(); // ENGRAM_API_KEY, ENGRAM_BASE_URL
 * const user = engram.forSpace('user-42');
 * await user.memories.add('I moved to Porto in March.', { wait: true });
 * const { context } = await user.context('Where does the user live?');
 */
export class Engram {
  /** The server's address, without a trailing slash. */
  readonly baseURL: string;
  /** The space every call reaches (`X-Memory-Space`), or undefined for the owner's own memory. */
  readonly space: string | undefined;
  /** Retries of a failed call. */
  readonly maxRetries: number;
  /** Milliseconds an attempt may take. */
  readonly timeout: number;

  /** Saves and the memories learned from them. */
  readonly memories: Memories;
  /** Plain-text files kept under a path. */
  readonly files: Files;
  /** What was added, and how its learning stands. */
  readonly sources: Sources;
  /** Promises and plans. */
  readonly intentions: Intentions;
  /** Keys limited to one space. */
  readonly keys: Keys;
  /** The account's spaces. */
  readonly spaces: Spaces;
  /** The nightly memory test: `memoryHealth()` for the last result, `memoryHealth.run()` to test now. */
  readonly memoryHealth: MemoryHealth;

  readonly #http: HttpClient;
  readonly #options: ClientOptions & { apiKey: string };

  /**
   * Makes a client. Options left out come from `ENGRAM_API_KEY` and `ENGRAM_BASE_URL`.
   * @example const engram = new Engram({ apiKey: process.env.ENGRAM_API_KEY, maxRetries: 4 });
   */
  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('ENGRAM_API_KEY');
    if (!apiKey) {
      throw new EngramError('No API key: set ENGRAM_API_KEY, or pass `new Engram({ apiKey })`');
    }
    if (isBrowser() && !apiKey.startsWith(LIMITED_KEY_PREFIX) && !options.dangerouslyAllowBrowser) {
      throw new EngramError(
        'This looks like a browser, and an account key here can be read by anyone using the page. ' +
          "Give the browser a key limited to its user's space (engram.keys.create(), egs_…), " +
          'or pass `dangerouslyAllowBrowser: true` if you understand the risk.',
      );
    }
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new EngramError('maxRetries must be a whole number, 0 or more');
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    if (!(timeout > 0)) throw new EngramError('timeout must be a number of milliseconds above 0');
    if (options.space !== undefined) checkSpace(options.space);

    this.#options = { ...options, apiKey };
    this.baseURL = (options.baseURL ?? readEnv('ENGRAM_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.space = options.space;
    this.maxRetries = maxRetries;
    this.timeout = timeout;
    // By default only failures are printed; retries go to a logger's debug when one is given.
    const logger: Logger | null =
      options.logger === undefined ? { warn: (message, ...details) => console.warn(message, ...details) } : options.logger;
    this.#http = new HttpClient({
      apiKey,
      baseURL: this.baseURL,
      space: this.space,
      maxRetries,
      timeout,
      fetch: options.fetch,
      logger,
      defaultHeaders: options.defaultHeaders ?? {},
    });
    this.sources = new Sources(this.#http);
    this.memories = new Memories(this.#http, this.sources);
    this.files = new Files(this.#http, this.sources);
    this.intentions = new Intentions(this.#http);
    this.keys = new Keys(this.#http);
    this.spaces = new Spaces(this.#http);
    this.memoryHealth = memoryHealth(this.#http);
  }

  /**
   * A client for one end user's space: the same settings, every call sent with `X-Memory-Space`.
   * @example const user = engram.forSpace(session.userId);
   */
  forSpace(userId: string): Engram {
    return new Engram({ ...this.#options, space: checkSpace(userId) });
  }

  /**
   * A prompt-ready block of what is known about a question (never empty; `empty` says nothing bears on it).
   * @example const { context } = await engram.context('What does Ana eat?');
   */
  context(params: ContextParams | string, options?: RequestOptions): Promise<ContextResponse> {
    const body = typeof params === 'string' ? { question: params } : params;
    return this.#http.request<ContextResponse>({ method: 'POST', path: '/v1/context', body }, options);
  }

  /**
   * A short written answer from the memory alone; `answer` is null when nothing supports one.
   * @example const { answer } = await engram.ask('Where does Ana live?');
   */
  ask(params: AskParams | string, options?: RequestOptions): Promise<AskResponse> {
    const body = typeof params === 'string' ? { question: params } : params;
    return this.#http.request<AskResponse>({ method: 'POST', path: '/v1/ask', body }, options);
  }

  /**
   * Ranked memories for a query.
   * @example const { memories } = await engram.search({ q: 'Porto', kind: 'people', limit: 5 });
   */
  search(params: SearchParams | string, options?: RequestOptions): Promise<SearchResponse> {
    const body = typeof params === 'string' ? { q: params } : params;
    return this.#http.request<SearchResponse>({ method: 'POST', path: '/v1/search', body, readOnly: true }, options);
  }

  /**
   * Where a project stands, what is due, the rules that apply, what happened and the memories, within a budget.
   * @example const { briefing } = await engram.briefing({ project: 'launch', cue: 'pricing', budget_chars: 4000 });
   */
  briefing(params: BriefingParams = {}, options?: RequestOptions): Promise<BriefingResponse> {
    return this.#http.request<BriefingResponse>({ method: 'POST', path: '/v1/briefing', body: params, readOnly: true }, options);
  }

  /**
   * Goal, focus, open items, decisions and next steps of each project (or of one).
   * @example const { now } = await engram.now({ project: 'launch' });
   */
  now(params: NowParams = {}, options?: RequestOptions): Promise<NowResponse> {
    return this.#http.request<NowResponse>({ method: 'GET', path: '/v1/now', query: { ...params } }, options);
  }

  /**
   * What happened, newest first.
   * @example const { episodes } = await engram.episodes({ limit: 5 });
   */
  episodes(params: EpisodesParams = {}, options?: RequestOptions): Promise<EpisodesResponse> {
    return this.#http.request<EpisodesResponse>({ method: 'GET', path: '/v1/episodes', query: { ...params } }, options);
  }

  /**
   * Rules, how-tos and lessons, with when they apply and why.
   * @example const { lessons } = await engram.lessons({ project: 'launch' });
   */
  lessons(params: LessonsParams = {}, options?: RequestOptions): Promise<LessonsResponse> {
    return this.#http.request<LessonsResponse>({ method: 'GET', path: '/v1/lessons', query: { ...params } }, options);
  }

  /**
   * What is known about a person (the owner when `subject` is left out): lasting and current facts.
   * @example const { lasting, current } = await engram.profile({ subject: 'Ana' });
   */
  profile(params: ProfileParams = {}, options?: RequestOptions): Promise<ProfileResponse> {
    return this.#http.request<ProfileResponse>({ method: 'GET', path: '/v1/profile', query: { ...params } }, options);
  }

  /**
   * A summary of a subject and the memories behind it.
   * @example const { summary } = await engram.brief({ subject: 'Ana' });
   */
  brief(params: BriefParams = {}, options?: RequestOptions): Promise<BriefResponse> {
    return this.#http.request<BriefResponse>({ method: 'GET', path: '/v1/brief', query: { ...params } }, options);
  }

  /**
   * The people, places and things remembered, and which remembered sentences connect them.
   * @example const { nodes, edges } = await engram.graph();
   */
  graph(params: GraphParams = {}, options?: RequestOptions): Promise<GraphResponse> {
    return this.#http.request<GraphResponse>({ method: 'GET', path: '/v1/graph', query: { ...params } }, options);
  }

  /**
   * This month's usage of the account, or of one space's share of it.
   * @example const { state, learned_tokens } = await engram.usage();
   */
  usage(params: SpaceParams = {}, options?: RequestOptions): Promise<UsageResponse> {
    // The usage route reads its space from the header only.
    const headers = params.space !== undefined ? { 'X-Memory-Space': params.space } : undefined;
    return this.#http.request<UsageResponse>({ method: 'GET', path: '/v1/usage', headers }, options);
  }

  /** The settings, without the key. */
  toJSON(): Record<string, unknown> {
    return { baseURL: this.baseURL, space: this.space, maxRetries: this.maxRetries, timeout: this.timeout };
  }

  /** How Node's `util.inspect` and `console.log` show the client: without the key. */
  [inspectSymbol](): string {
    return `Engram ${JSON.stringify(this.toJSON())}`;
  }
}

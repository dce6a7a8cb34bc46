import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema/tables.js';
import type { Scope } from './scope.js';

/** A worker learned a job: the payload names the space (`{"o": origin, "a": account id, "s": space}`). */
export const LEARNED_CHANNEL = 'engram_learned';
/** An API process queued sources to learn (`{"o": origin}`): any worker may take them. */
export const QUEUED_CHANNEL = 'engram_queued';
/** The listening connection's application_name, so that an operator (or a test) can find it in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'engram-listen';

/** PostgreSQL refuses a payload of 8000 bytes or more; ours are well under it (a space is at most 128 characters). */
const MAX_PAYLOAD_BYTES = 7_900;
/** The first wait before connecting again after the listening connection dropped, doubled each failure... */
const FIRST_RETRY_MS = 250;
/** ...up to this. */
const MAX_RETRY_MS = 30_000;

/** What a process does when another process signals through the store. */
export interface SignalHandlers {
  /** Another process learned a job of this space (its memories, and the space's version, changed). */
  learned?: (scope: Scope) => void;
  /** Another process queued sources to learn. */
  queued?: () => void;
  /** The listening connection is up (again): what was signalled while it was down was not heard. */
  listening?: () => void;
}

/** Options of a store's signals. */
export interface SignalOptions {
  /** Where the dedicated listening connection connects (the store's DATABASE_URL). */
  connectionString: string;
  /** Where a lost (and a regained) listening connection is reported, one line each; stderr by default. */
  log?: (message: string) => void;
  /** The first wait before connecting again (tests), in milliseconds. */
  firstRetryMs?: number;
}

/**
 * Signals between the processes of one PostgreSQL store, over LISTEN/NOTIFY: a worker that
 * learned a job says which space it wrote to (API processes holding a copy of that space's index
 * bring it up to date at once instead of at its next search), and an API process that queued
 * sources says so (idle workers in other processes look for the job at once instead of at their
 * next poll).
 *
 * A signal is sent after the work it reports is committed, as its own statement on the store's
 * pool: never inside the work's transaction, where PostgreSQL would hold its database-wide
 * notification lock from the NOTIFY through that transaction's commit, making concurrent saves
 * commit one after another. Signals sent while one is in flight go together in the next
 * statement, and identical ones once.
 *
 * Hearing takes one dedicated connection (not from the pool), made only once something subscribes.
 * When it drops, it connects again with backoff (logged once per outage); meanwhile workers
 * find jobs at their poll and copies catch up at their next search, as without signals. A
 * process ignores its own signals: what it does itself it already acts on in-process.
 */
export class StoreSignals {
  /** This store's mark on what it sends, so that it can tell its own signals from others'. */
  readonly origin = randomUUID().replaceAll('-', '').slice(0, 12);
  readonly #subscribers = new Set<SignalHandlers>();
  readonly #pending = new Map<string, { channel: string; payload: string }>();
  #flushing: Promise<void> | null = null;
  #client: pg.Client | null = null;
  #listened = new Set<string>();
  /** The listening connection is connected and has listened. */
  #ready = false;
  #retryTimer: NodeJS.Timeout | null = null;
  #retryMs: number;
  #outage = false;
  #closed = false;

  constructor(
    // The store's handle (database.ts's Db, named here by its parts: database.ts makes the signals).
    private readonly db: Kysely<Database>,
    private readonly options: SignalOptions,
  ) {
    this.#retryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
  }

  /** A worker of this process learned a job of `scope`, committed. */
  learned(scope: Scope): void {
    this.#send(LEARNED_CHANNEL, JSON.stringify({ o: this.origin, a: scope.accountId, s: scope.space }));
  }

  /** This process queued sources to learn, committed. */
  queued(): void {
    this.#send(QUEUED_CHANNEL, JSON.stringify({ o: this.origin }));
  }

  /**
   * Hears the other processes' signals (only the kinds `handlers` acts on) until the returned
   * function is called. The first subscriber opens the listening connection; the last to leave closes it.
   */
  subscribe(handlers: SignalHandlers): () => void {
    this.#subscribers.add(handlers);
    this.#listen();
    return () => {
      this.#subscribers.delete(handlers);
      if (!this.#subscribers.size) this.#disconnect();
    };
  }

  /** Whether the listening connection is up and listening (tests, readiness). */
  get listening(): boolean {
    return this.#ready;
  }

  /** Stops hearing and sending: signals not yet sent are sent first. */
  async close(): Promise<void> {
    this.#subscribers.clear();
    this.#disconnect();
    await this.#flushing;
    this.#closed = true;
  }

  #send(channel: string, payload: string): void {
    if (this.#closed || Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return;
    this.#pending.set(`${channel}\u0000${payload}`, { channel, payload });
    this.#flushing ??= this.#flush();
  }

  async #flush(): Promise<void> {
    // Signals of the same turn of the event loop (a batch's, several workers') go in one statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#pending.size) {
      const signals = [...this.#pending.values()];
      this.#pending.clear();
      try {
        await sql`
          select pg_notify(n.channel, n.payload)
          from unnest(${signals.map((signal) => signal.channel)}::text[], ${signals.map((signal) => signal.payload)}::text[]) as n(channel, payload)`.execute(
          this.db,
        );
      } catch {
        // The work is committed; other processes find it at their poll or their next search.
      }
    }
    this.#flushing = null;
  }

  /** The channels the subscribers act on. */
  #wanted(): string[] {
    const channels = new Set<string>();
    for (const handlers of this.#subscribers) {
      if (handlers.learned) channels.add(LEARNED_CHANNEL);
      if (handlers.queued) channels.add(QUEUED_CHANNEL);
    }
    return [...channels];
  }

  /** Listens to the wanted channels: connects when not connected (nor waiting to), else listens to any new one. */
  #listen(): void {
    if (this.#closed || !this.#wanted().length || this.#retryTimer) return;
    const client = this.#client;
    if (!client) {
      void this.#connect();
      return;
    }
    for (const channel of this.#wanted()) {
      if (this.#listened.has(channel)) continue;
      this.#listened.add(channel);
      client.query(`listen ${channel}`).catch((error: unknown) => client.emit('error', error));
    }
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: LISTENER_APPLICATION_NAME });
    this.#client = client;
    this.#listened = new Set();
    let gone = false;
    const lost = (error: unknown) => {
      if (gone) return;
      gone = true;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.#client !== client) return;
      this.#client = null;
      this.#ready = false;
      this.#listened = new Set();
      if (this.#subscribers.size) this.#retry(error);
    };
    // node-postgres reports a dropped connection as an 'error' event; unheard, it would stop the process.
    client.on('error', lost);
    client.on('end', () => lost(new Error('the connection was closed')));
    client.on('notification', (message) => this.#heard(message));
    try {
      await client.connect();
      const channels = this.#wanted();
      for (const channel of channels) await client.query(`listen ${channel}`);
      for (const channel of channels) this.#listened.add(channel);
    } catch (error) {
      lost(error);
      return;
    }
    if (this.#client !== client) return;
    this.#ready = true;
    this.#retryMs = this.options.firstRetryMs ?? FIRST_RETRY_MS;
    if (this.#outage) {
      this.#outage = false;
      this.#log('listening for the other processes again');
    }
    // Whatever was signalled while the connection was down is looked for once.
    for (const handlers of this.#subscribers) this.#call(() => handlers.listening?.());
  }

  #retry(error: unknown): void {
    if (!this.#outage) {
      this.#outage = true;
      this.#log(
        `lost the connection that hears the other processes (${error instanceof Error ? error.message : String(error)}); ` +
          'connecting again with backoff, and until then workers find jobs at their poll and recall copies catch up at their next search',
      );
    }
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#listen();
    }, this.#retryMs);
    this.#retryTimer.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }

  #disconnect(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    const client = this.#client;
    this.#client = null;
    this.#ready = false;
    this.#listened = new Set();
    this.#outage = false;
    if (client) {
      client.removeAllListeners('notification');
      client.end().catch(() => {});
    }
  }

  #heard(message: pg.Notification): void {
    let signal: { o?: unknown; a?: unknown; s?: unknown };
    try {
      signal = JSON.parse(message.payload ?? '');
    } catch {
      return;
    }
    if (signal.o === this.origin) return;
    if (message.channel === LEARNED_CHANNEL) {
      if (typeof signal.a !== 'number' || typeof signal.s !== 'string') return;
      const scope = { accountId: signal.a, space: signal.s };
      for (const handlers of this.#subscribers) this.#call(() => handlers.learned?.(scope));
    } else if (message.channel === QUEUED_CHANNEL) {
      for (const handlers of this.#subscribers) this.#call(() => handlers.queued?.());
    }
  }

  #call(handler: () => void): void {
    try {
      handler();
    } catch (error) {
      this.#log(`a signal's handler failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #log(message: string): void {
    (this.options.log ?? ((line) => process.stderr.write(`[engram] ${line}\n`)))(message);
  }
}

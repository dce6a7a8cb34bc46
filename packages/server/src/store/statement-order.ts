/**
 * The order statements reach the embedded store's one database session in.
 *
 * PGlite is one PostgreSQL session, run on a thread of its own (store/embedded-thread.mjs) that
 * takes statements one after another in the order they are posted. Several node-postgres
 * connections post to it, so that a statement is posted as soon as it is ready rather than when
 * the statement before it has been answered and its answer read on the server's busy thread: the
 * thread runs the next while the server is still reading the last one's rows.
 *
 * A transaction needs the session to itself: between its `begin` and its end no other
 * connection's statement may run, or it would run inside the transaction (seeing what is not
 * committed, or aborted with it). So a connection that begins one first `claim`s the session;
 * while it holds the claim, what other connections post is held back (`submit`), and when the
 * transaction is over (`release`) what was held back is posted, requests' statements before
 * background work's, each in the order it came; then the next claim is granted. Statements
 * posted before a claim was granted run before its `begin`, as the thread takes them in order.
 *
 * Claims are granted requests' first (urgent), then background work's (learning,
 * housekeeping), each kind in the order it asked. Requests go ahead of learning: a background
 * claim is granted only once no request's statement is at the thread (on the event loop's next
 * turn, so that a request just answered that posts its next statement at once goes first), or
 * once it has waited `BACKGROUND_PATIENCE_MS`, so that under a load that never pauses learning
 * still takes a transaction now and then rather than none.
 */
export class StatementOrder {
  #holder: object | null = null;
  #grantQueued = false;
  #urgentInFlight = 0;
  #patience: NodeJS.Timeout | null = null;
  #urgentAt = Number.NEGATIVE_INFINITY;
  readonly #claims = { urgent: [] as Claim[], background: [] as Claim[] };
  readonly #held = { urgent: [] as (() => void)[], background: [] as (() => void)[] };

  /**
   * Posts a statement of `owner`'s connection (`post` sends it to the thread): at once, unless
   * another connection holds the session, in which case it is held back until that one lets go.
   */
  submit<T>(owner: object, urgent: boolean, post: () => Promise<T>): Promise<T> {
    if (urgent) this.#urgentAt = performance.now();
    const posted = urgent ? () => this.#counted(post) : post;
    if (this.#holder === null || this.#holder === owner) return posted();
    return new Promise<T>((resolve, reject) => {
      (urgent ? this.#held.urgent : this.#held.background).push(() => {
        posted().then(resolve, reject);
      });
    });
  }

  /** Posts a request's statement, counted at the thread until it is answered. */
  #counted<T>(post: () => Promise<T>): Promise<T> {
    this.#urgentInFlight += 1;
    const answered = post();
    const done = () => {
      this.#urgentInFlight -= 1;
      if (this.#urgentInFlight === 0 && this.#holder === null && this.#claims.background.length) this.#grantNext();
    };
    answered.then(done, done);
    return answered;
  }

  /** Resolves once `owner` holds the session, for a transaction; it must `release` it after. */
  claim(owner: object, urgent: boolean): Promise<void> {
    if (urgent) this.#urgentAt = performance.now();
    if (urgent && this.#holder === null) {
      this.#holder = owner;
      return Promise.resolve();
    }
    const granted = new Promise<void>((resolve) =>
      (urgent ? this.#claims.urgent : this.#claims.background).push({ owner, grant: resolve, asked: performance.now() }),
    );
    if (this.#holder === null) this.#grantNext();
    return granted;
  }

  /** `owner`'s transaction is over: what was held back is posted, then the next claim is granted. */
  release(owner: object): void {
    if (this.#holder !== owner) return;
    this.#holder = null;
    // Requests' statements first; each posts at once now that nobody holds the session.
    for (const post of this.#held.urgent.splice(0)) post();
    for (const post of this.#held.background.splice(0)) post();
    this.#grantNext();
  }

  /** Records that a request used the store (for `quietMs`). */
  touch(): void {
    this.#urgentAt = performance.now();
  }

  /** Milliseconds since a request last posted, claimed or let go of a statement (Infinity: never). */
  get quietMs(): number {
    return performance.now() - this.#urgentAt;
  }

  /** Who waits, by kind (tests): claims for the session, and statements held back. */
  get waiting(): { claims: { urgent: number; background: number }; held: { urgent: number; background: number } } {
    return {
      claims: { urgent: this.#claims.urgent.length, background: this.#claims.background.length },
      held: { urgent: this.#held.urgent.length, background: this.#held.background.length },
    };
  }

  #grantNext(): void {
    const urgent = this.#claims.urgent.shift();
    if (urgent) {
      this.#holder = urgent.owner;
      urgent.grant();
      return;
    }
    if (!this.#claims.background.length || this.#grantQueued) return;
    this.#grantQueued = true;
    setImmediate(() => {
      this.#grantQueued = false;
      if (this.#holder !== null) return;
      const next = this.#claims.urgent.shift();
      if (next) {
        this.#holder = next.owner;
        next.grant();
        return;
      }
      const background = this.#claims.background[0];
      if (!background) return;
      const waited = performance.now() - background.asked;
      if (this.#urgentInFlight > 0 && waited < BACKGROUND_PATIENCE_MS) {
        // Asked again when the requests' last statement is answered, or when patience runs out.
        this.#patience ??= setTimeout(() => {
          this.#patience = null;
          if (this.#holder === null) this.#grantNext();
        }, BACKGROUND_PATIENCE_MS - waited);
        return;
      }
      if (this.#patience) clearTimeout(this.#patience);
      this.#patience = null;
      this.#claims.background.shift();
      this.#holder = background.owner;
      background.grant();
    });
  }
}

interface Claim {
  owner: object;
  grant: () => void;
  /** When it was asked (performance.now()). */
  asked: number;
}

/**
 * How long a background claim (a learning transaction) waits at most for requests' statements to
 * be answered before it is granted anyway: under a load that never pauses, learning goes on a
 * little rather than not at all.
 */
export const BACKGROUND_PATIENCE_MS = 50;

/** A statement that begins a transaction (Kysely's `begin` and `start transaction …`). */
export const BEGINS_TRANSACTION = /^\s*(?:begin|start\s+transaction)\b/i;

/** A cached key and when to make its successor. */
export interface CachedKey<T> {
  value: T;
  renewAt: number;
}

/**
 * One key per space, made on first need, made again once it is due for renewal, and never
 * made twice at once for a space (concurrent requests share the one in flight).
 */
export class KeyCache<T> {
  readonly #entries = new Map<string, CachedKey<T>>();
  readonly #inFlight = new Map<string, Promise<CachedKey<T>>>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** The space's key: the cached one while it is fresh, else the one being made, else a new one. */
  get(space: string, now: number, make: () => Promise<CachedKey<T>>): Promise<T> {
    const cached = this.#entries.get(space);
    if (cached && now < cached.renewAt) return Promise.resolve(cached.value);
    let making = this.#inFlight.get(space);
    if (!making) {
      const current: Promise<CachedKey<T>> = make().then(
        (entry) => {
          // Cached only if nobody forgot the space meanwhile (a logout during the making).
          if (this.#inFlight.get(space) === current) {
            this.#inFlight.delete(space);
            this.#entries.delete(space);
            this.#entries.set(space, entry);
            while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
          }
          return entry;
        },
        (error: unknown) => {
          if (this.#inFlight.get(space) === current) this.#inFlight.delete(space);
          throw error;
        },
      );
      making = current;
      this.#inFlight.set(space, making);
    }
    return making.then((entry) => entry.value);
  }

  /** The space's cached key, fresh or not. */
  peek(space: string): T | undefined {
    return this.#entries.get(space)?.value;
  }

  /** Drops the space's key, and any key being made for it. */
  forget(space: string): void {
    this.#entries.delete(space);
    this.#inFlight.delete(space);
  }
}

/** The fields every page of a listing answers with. */
export interface PageBody {
  total: number;
  next?: number;
}

/** Fetches the page that starts at `cursor`. */
type FetchPage<Body> = (cursor: number) => Promise<Body>;

/**
 * One page of a listing: the answer's own fields (`memories`, `counts`, `total`, `next`, …)
 * plus `items`, and async iteration over every item of every page from here on.
 * @example
 * const page = await engram.sources.list({ limit: 20 });
 * console.log(page.total, page.sources.length);
 * for await (const source of page) console.log(source.id);
 */
export class Page<Item, Body extends PageBody = PageBody> implements AsyncIterable<Item> {
  readonly #itemsKey: keyof Body;
  readonly #fetchPage: FetchPage<Body>;
  readonly #cursor: number;

  /** Made by the listing methods; `body` is the answer of the call at `cursor`. */
  constructor(body: Body, itemsKey: keyof Body, cursor: number, fetchPage: FetchPage<Body>) {
    Object.assign(this, body);
    this.#itemsKey = itemsKey;
    this.#cursor = cursor;
    this.#fetchPage = fetchPage;
  }

  /** The items of this page only. */
  get items(): Item[] {
    return ((this as unknown as Body)[this.#itemsKey] as Item[] | undefined) ?? [];
  }

  /** True when another page follows. */
  hasNextPage(): boolean {
    const next = (this as unknown as PageBody).next;
    return typeof next === 'number' && next > this.#cursor && this.items.length > 0;
  }

  /** The following page, or null after the last. */
  async getNextPage(): Promise<this | null> {
    if (!this.hasNextPage()) return null;
    const cursor = (this as unknown as PageBody).next!;
    const body = await this.#fetchPage(cursor);
    return new (this.constructor as new (...args: unknown[]) => this)(body, this.#itemsKey, cursor, this.#fetchPage);
  }

  /** This page and each following one. */
  async *iterPages(): AsyncGenerator<this> {
    for (let page: this | null = this; page; page = await page.getNextPage()) yield page;
  }

  /** Every item of this page and of the pages after it, fetched as needed. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/**
 * What a listing method returns: await it for the first page, or iterate it with
 * `for await` for every item of every page.
 * @example for await (const memory of engram.memories.list()) console.log(memory.text);
 */
export class PagePromise<P extends AsyncIterable<Item>, Item> implements PromiseLike<P>, AsyncIterable<Item> {
  readonly #loaded: Promise<P>;

  /** Made by the listing methods; the first page's call starts at once, like any promise's. */
  constructor(load: () => Promise<P>) {
    this.#loaded = load();
    // Whoever awaits or iterates sees a failure; a call nobody awaits must not crash the process.
    this.#loaded.catch(() => {});
  }

  #page(): Promise<P> {
    return this.#loaded;
  }

  /** Settles with the first page. */
  then<Result = P, Reason = never>(
    onFulfilled?: ((page: P) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Reason | PromiseLike<Reason>) | null,
  ): Promise<Result | Reason> {
    return this.#page().then(onFulfilled, onRejected);
  }

  /** Handles a failure of the first page's call. */
  catch<Reason = never>(onRejected?: ((reason: unknown) => Reason | PromiseLike<Reason>) | null): Promise<P | Reason> {
    return this.#page().catch(onRejected);
  }

  /** Runs `onFinally` once the first page's call settles. */
  finally(onFinally?: (() => void) | null): Promise<P> {
    return this.#page().finally(onFinally);
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    yield* await this.#page();
  }
}

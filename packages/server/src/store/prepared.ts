import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** How many statement texts a store prepares at most; any other runs unnamed, as before. */
export const MAX_PREPARED = 256;

/** How many texts seen once are remembered while waiting for a second use. */
const MAX_SEEN = 2_048;

/**
 * Names for the statements a store runs again and again, so that node-postgres prepares each
 * once per connection (a named statement: parsed and analysed once, its plan kept by the
 * database) and every later call only binds and executes it. A text is named on its second use,
 * so statements made once (a batch of a size never seen again) never take a name; at most
 * `max` texts are named, so what each connection keeps is bounded. Only statements with
 * parameters are named: one without parameters may hold several statements (migrations),
 * which only the simple protocol runs.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();
  #seen = new Set<string>();

  constructor(private readonly max = MAX_PREPARED) {}

  /** The name of `text`, or undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= this.max) return name;
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= MAX_SEEN) this.#seen = new Set();
      this.#seen.add(text);
      return undefined;
    }
    this.#seen.delete(text);
    const named = `engram_${this.#names.size}`;
    this.#names.set(text, named);
    return named;
  }

  /** How many texts are named (tests). */
  get size(): number {
    return this.#names.size;
  }
}

type Query = (text: string, values?: readonly unknown[]) => Promise<unknown>;

/**
 * `client`'s query as Kysely calls it, each statement with parameters run by its name when it has
 * one. `suffix` is added to the names: connections that share one database session (the embedded
 * store's) each prepare their own, so that none relies on a statement another has yet to prepare.
 */
export function namedQuery(client: pg.PoolClient, names: StatementNames, suffix = ''): PostgresPoolClient['query'] {
  const query: Query = (text, values) => {
    if (typeof text === 'string' && values?.length) {
      const name = names.nameOf(text);
      if (name !== undefined) return client.query({ name: name + suffix, text, values: values as unknown[] });
    }
    return client.query(text, values as unknown[] | undefined);
  };
  return query as unknown as PostgresPoolClient['query'];
}

/** `pool` lending clients whose statements run by name (`namedQuery`). */
export function namedPool(pool: pg.Pool, names: StatementNames): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return { query: namedQuery(client, names), release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

import type { Engram } from '@engram/client';
import { NotFoundError } from '@engram/client';
import type {
  GetOperation,
  Item,
  ListNamespacesOperation,
  MatchCondition,
  Operation,
  OperationResults,
  PutOperation,
  SearchItem,
  SearchOperation,
} from '@langchain/langgraph-checkpoint';
import { BaseStore, getTextAtPath } from '@langchain/langgraph-checkpoint';
import { inSpace } from './internal/in-space.js';
import { matchesFilter } from './internal/match-filter.js';
import { decodePathPart, encodePathPart, normalisePrefix } from './internal/path-part.js';
import type { Labels } from './internal/types.js';

/** Options of `new EngramStore()`. */
export interface EngramStoreOptions {
  /** The Engram client (an account key when `spaceFromNamespace` reaches many users' spaces). */
  client: Engram;
  /** The space every item is kept in. Default: the client's own. Ignored with `spaceFromNamespace`. */
  space?: string;
  /**
   * The first part of every namespace names the space (the end user), as in `[userId, 'memories']`;
   * the rest is the path. Default false: the whole namespace is the path, in `space`.
   */
  spaceFromNamespace?: boolean;
  /** Where items are kept among the space's files. Default `/langgraph`. */
  pathPrefix?: string;
}

/** A namespace's place in Engram: the space, and the namespace parts that make the path. */
interface Place {
  space: string | undefined;
  parts: string[];
}

/** Labels beyond the first (the store's own) name the namespace at each depth, so recall can filter on any prefix. */
const MAX_DEPTH = 19;
/** Memories a query recalls before they are grouped into items (the most /v1/search gives). */
const RECALL_LIMIT = 50;
/** The ending of an item's text file. No item path has a "." below the prefix: keys escape theirs, namespaces have none. */
const TEXT = '.txt';

/**
 * A LangGraph store (`BaseStore`) kept in Engram: each item is a file holding its value as JSON,
 * at `${pathPrefix}/${namespace…}/${key}` (kept, not learned), beside a `.txt` file holding the
 * value's text (its strings, or the fields `put` names), which Engram learns; so `search()` with
 * a `query` recalls over the namespace (ranked by Engram, `score` 0 to 1). `put(…, false)` keeps
 * an item without learning it. Without a query, `search()` lists a namespace's items by key, then
 * those beneath it.
 * @example
 * const store = new EngramStore({ client: new Engram(), spaceFromNamespace: true });
 * await store.put([user.id, 'memories'], 'food', { text: 'Ana is vegetarian.' });
 * const items = await store.search([user.id, 'memories'], { query: 'What does Ana eat?' });
 */
export class EngramStore extends BaseStore {
  readonly #client: Engram;
  readonly #space: string | undefined;
  readonly #spaceFromNamespace: boolean;
  readonly #prefix: string;

  constructor(options: EngramStoreOptions) {
    super();
    this.#client = options.client;
    this.#space = options.space;
    this.#spaceFromNamespace = options.spaceFromNamespace ?? false;
    this.#prefix = normalisePrefix(options.pathPrefix ?? '/langgraph');
  }

  /** Runs the operations in order (each sees what the ones before it wrote). */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) results.push(await this.#run(operation));
    return results as OperationResults<Op>;
  }

  #run(operation: Operation) {
    if ('value' in operation) return this.#put(operation);
    if ('namespacePrefix' in operation) return this.#search(operation);
    if ('key' in operation) return this.#get(operation);
    return this.#listNamespaces(operation);
  }

  async #get({ namespace, key }: GetOperation): Promise<Item | null> {
    const place = this.#place(namespace);
    return this.#read(place.space, this.#itemPath(place, key));
  }

  async #put({ namespace, key, value, index }: PutOperation): Promise<void> {
    const place = this.#place(namespace);
    const path = this.#itemPath(place, key);
    if (value === null) {
      await this.#deleteIfThere(place.space, path);
      await this.#deleteIfThere(place.space, `${path}${TEXT}`);
      return;
    }
    if (place.parts.length > MAX_DEPTH) throw new Error(`A namespace is at most ${MAX_DEPTH} parts deep below the space`);
    // The JSON is kept as it is and never learned: Engram would learn its quotes and braces too.
    await this.#client.files.write({ path, text: JSON.stringify(value, null, 2), learn: false, ...inSpace(place.space) });
    if (index === false) {
      await this.#deleteIfThere(place.space, `${path}${TEXT}`);
      return;
    }
    // What is learned is the value's text, a line each, labelled with the namespace for recall.
    await this.#client.files.write({
      path: `${path}${TEXT}`,
      text: textOf(value, index).join('\n'),
      labels: this.#labels(place.parts),
      ...inSpace(place.space),
    });
  }

  async #deleteIfThere(space: string | undefined, path: string): Promise<void> {
    try {
      await this.#client.files.delete(path, inSpace(space));
    } catch (error) {
      if (!NotFoundError.isInstance(error)) throw error;
    }
  }

  async #search({ namespacePrefix, filter, limit = 10, offset = 0, query }: SearchOperation): Promise<SearchItem[]> {
    const place = this.#place(namespacePrefix);
    const paths = query ? await this.#recall(place, query) : await this.#listed(place);
    const items: SearchItem[] = [];
    let skipped = 0;
    for (const [path, score] of paths) {
      // Without a filter, what is skipped need not be read.
      if (!filter && skipped < offset) {
        skipped++;
        continue;
      }
      const item = await this.#read(place.space, path);
      if (!item || !matchesFilter(item.value, filter)) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      items.push(score === undefined ? item : { ...item, score });
      if (items.length >= limit) break;
    }
    return items;
  }

  /** The files whose memories bear on the query, best first, each with its best memory's score. */
  async #recall(place: Place, query: string): Promise<Array<[string, number]>> {
    const { memories } = await this.#client.search({
      q: query,
      limit: RECALL_LIMIT,
      labels: this.#labels(place.parts, place.parts.length),
      ...inSpace(place.space),
    });
    const directory = this.#directory(place.parts);
    const best = new Map<string, number>();
    for (const memory of memories) {
      const textPath = memory.source.title;
      if (memory.source.kind !== 'file' || !textPath?.startsWith(directory) || !textPath.endsWith(TEXT)) continue;
      const path = textPath.slice(0, -TEXT.length);
      best.set(path, Math.max(best.get(path) ?? 0, memory.score ?? 0));
    }
    return [...best].sort((left, right) => right[1] - left[1]);
  }

  /** Every item beneath the namespace: a namespace's own items (by key) before those of the namespaces beneath it. */
  async #listed(place: Place): Promise<Array<[string, undefined]>> {
    const found: Array<{ path: string; names: string[] }> = [];
    for await (const file of this.#client.files.list({ prefix: this.#directory(place.parts), limit: 200, ...inSpace(place.space) })) {
      if (file.path.endsWith(TEXT)) continue;
      const { parts, key } = this.#decode(file.path);
      found.push({ path: file.path, names: [...parts, '', key] });
    }
    found.sort((left, right) => compareNames(left.names, right.names));
    return found.map(({ path }) => [path, undefined]);
  }

  async #listNamespaces({ matchConditions = [], maxDepth, limit, offset }: ListNamespacesOperation): Promise<string[][]> {
    // The leading parts every namespace must have narrow what is listed.
    const leading: string[] = [];
    for (const part of matchConditions.find((condition) => condition.matchType === 'prefix')?.path ?? []) {
      if (part === '*') break;
      leading.push(part);
    }
    const places: Place[] = [];
    if (!this.#spaceFromNamespace) places.push({ space: this.#space, parts: leading });
    else if (leading.length) places.push({ space: leading[0], parts: leading.slice(1) });
    else for await (const space of this.#client.spaces.list({ limit: 200 })) places.push({ space: space.name, parts: [] });

    const found = new Map<string, string[]>();
    for (const place of places) {
      for await (const file of this.#client.files.list({ prefix: this.#directory(place.parts), limit: 200, ...inSpace(place.space) })) {
        if (file.path.endsWith(TEXT)) continue;
        const { parts } = this.#decode(file.path);
        const namespace = this.#spaceFromNamespace ? [place.space!, ...parts] : parts;
        if (namespace.length && matchConditions.every((condition) => matches(condition, namespace))) {
          const shown = maxDepth === undefined ? namespace : namespace.slice(0, maxDepth);
          found.set(JSON.stringify(shown), shown);
        }
      }
    }
    const namespaces = [...found.values()].sort((left, right) => left.join(':').localeCompare(right.join(':')));
    return namespaces.slice(offset, offset + limit);
  }

  /** One item, or null when no file is there. */
  async #read(space: string | undefined, path: string): Promise<Item | null> {
    let file: Awaited<ReturnType<Engram['files']['read']>>;
    try {
      file = await this.#client.files.read(path, inSpace(space));
    } catch (error) {
      if (NotFoundError.isInstance(error)) return null;
      throw error;
    }
    const { parts, key } = this.#decode(path);
    const at = new Date(file.updated_at);
    return {
      namespace: this.#spaceFromNamespace ? [space!, ...parts] : parts,
      key,
      value: parseValue(file.text),
      // Engram keeps when a file was last written; that is the time given for both.
      createdAt: at,
      updatedAt: at,
    };
  }

  #place(namespace: string[]): Place {
    if (!this.#spaceFromNamespace) return { space: this.#space, parts: namespace };
    const [space, ...parts] = namespace;
    if (space === undefined) throw new Error("This store takes the space from the namespace: start every namespace with the user's id");
    return { space, parts };
  }

  #directory(parts: string[]): string {
    return parts.length ? `${this.#prefix}/${parts.map(encodePathPart).join('/')}/` : `${this.#prefix}/`;
  }

  #itemPath(place: Place, key: string): string {
    return `${this.#directory(place.parts)}${encodePathPart(key).replaceAll('.', '%2E')}`;
  }

  /** The store's label, and one per depth naming the namespace down to it (only `depth` when given). */
  #labels(parts: string[], depth?: number): Labels {
    const labels: Labels = { langgraph: this.#prefix };
    const encoded = parts.map(encodePathPart);
    for (let index = 1; index <= encoded.length; index++) {
      if (depth === undefined || index === depth) labels[`langgraph:${index}`] = encoded.slice(0, index).join('/');
    }
    return labels;
  }

  #decode(path: string): { parts: string[]; key: string } {
    const names = path
      .slice(this.#prefix.length + 1)
      .split('/')
      .map(decodePathPart);
    return { parts: names.slice(0, -1), key: names[names.length - 1]! };
  }
}

/** The text of a value Engram learns: the strings at the fields named, or every string in it. */
function textOf(value: Record<string, unknown>, fields: string[] | undefined): string[] {
  if (fields) return fields.flatMap((field) => getTextAtPath(value, field));
  const texts: string[] = [];
  const walk = (part: unknown) => {
    if (typeof part === 'string') texts.push(part);
    else if (Array.isArray(part)) part.forEach(walk);
    else if (typeof part === 'object' && part !== null) Object.values(part).forEach(walk);
  };
  walk(value);
  return texts.filter((text) => text.trim() !== '');
}

/** An item's value: the file's JSON object, or `{ text }` for a file that holds anything else. */
function parseValue(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON: someone wrote the file by hand.
  }
  return { text };
}

/** Orders name lists part by part (the empty part after a namespace puts its own items first). */
function compareNames(left: string[], right: string[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index]! < right[index]! ? -1 : 1;
  }
  return left.length - right.length;
}

/** Whether a namespace meets a prefix or suffix condition ("*" matches any one part). */
function matches({ matchType, path }: MatchCondition, namespace: string[]): boolean {
  if (path.length > namespace.length) return false;
  const start = matchType === 'prefix' ? 0 : namespace.length - path.length;
  return path.every((part, index) => part === '*' || namespace[start + index] === part);
}

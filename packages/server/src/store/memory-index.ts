import type { KindFilter, Labels, MemoryKind } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from './database.js';
import { type HitRow, hitColumns, hitOf, type LexemeHit, type LexemeSearch } from './memory-repository.js';
import type { Scope } from './scope.js';

/**
 * An in-process copy of a space's search index: every current memory with the lexemes of its
 * tsvector, where each matched (its own words, the rest of its message, the message it
 * answers) and how much each weighs for cover density. Recall over a copy runs in
 * JavaScript in a millisecond or two, where reading every match's tsvector out of the store
 * costs ten to thirty; the answers are the same (tested against the store's own search).
 *
 * A copy is true for one version of its space (see migration 6): the store bumps the version
 * whenever any memory of the space is added, changed or removed, by any process. Recall
 * reads the version with the question's lexemes and uses a copy only when its version is
 * the current one; otherwise it searches the store as before and the copy is rebuilt in
 * the background, at most once every REBUILD_MS per space, so that a space being written
 * to is not read whole over and over.
 */

/** What one memory holds for recall besides its words. */
interface IndexedMemory {
  id: number;
  kind: MemoryKind;
  about: string[];
  created_at: number;
  said: number;
  passage: string;
  slot: string | null;
  dated: boolean;
  reported: boolean;
  labels: Labels;
}

/** A memory as read from the store, its tsvector parsed. */
export interface ParsedMemory extends IndexedMemory {
  /** Lexeme → level (3 its own words or names, 2 the rest of its message, 1 the message it answers). */
  levels: Map<string, number>;
  /** Lexeme → the summed weights of its positions (A 1, B 0.4, C 0.2, D 0.1), for cover density. */
  weights: Map<string, number>;
}

/** The memories holding one lexeme (positions in the copy, ascending), with its level and cover weight in each. */
interface Posting {
  memories: Int32Array;
  levels: Uint8Array;
  weights: Float64Array;
}

/** A space's copy at one version: the memories, and for each lexeme the memories holding it. */
export class SpaceIndex {
  readonly memories: IndexedMemory[];
  private readonly postings = new Map<string, Posting>();
  private readonly positionOf = new Map<number, number>();

  constructor(
    readonly version: string,
    parsed: ParsedMemory[],
  ) {
    const lists = new Map<string, { memories: number[]; levels: number[]; weights: number[] }>();
    this.memories = parsed.map((memory, position) => {
      for (const [lexeme, level] of memory.levels) {
        let list = lists.get(lexeme);
        if (!list) lists.set(lexeme, (list = { memories: [], levels: [], weights: [] }));
        list.memories.push(position);
        list.levels.push(level);
        list.weights.push(memory.weights.get(lexeme) ?? 0);
      }
      this.positionOf.set(memory.id, position);
      const { levels: _levels, weights: _weights, ...rest } = memory;
      return rest;
    });
    // Typed arrays hold the postings in a fraction of the room of two Maps per memory.
    for (const [lexeme, list] of lists) {
      this.postings.set(lexeme, {
        memories: Int32Array.from(list.memories),
        levels: Uint8Array.from(list.levels),
        weights: Float64Array.from(list.weights),
      });
    }
  }

  /** The same answer as `searchMemories` in memory-repository.ts, from the copy. */
  search(options: LexemeSearch): { hits: LexemeHit[]; total: number; counts: Map<string, number> } {
    const labels = options.labels && Object.keys(options.labels).length ? Object.entries(options.labels) : null;
    const bringing = options.lexemes.filter((lexeme) => !options.scoreOnly?.has(lexeme));
    const counted = bringing.length ? options.lexemes.filter((lexeme) => options.scoreOnly?.has(lexeme)) : [];
    const counts = new Map(counted.map((lexeme) => [lexeme, this.postings.get(lexeme)?.memories.length ?? 0]));
    const found = new Set<number>();
    for (const lexeme of bringing.length ? bringing : options.lexemes) {
      const posting = this.postings.get(lexeme);
      if (!posting) continue;
      const factOnly = options.factOnly?.has(lexeme) ?? false;
      posting.memories.forEach((position, index) => {
        if (!factOnly || posting.levels[index] === 3) found.add(position);
      });
    }
    const levels = new Map<number, number[]>();
    for (const position of found) {
      const memory = this.memories[position]!;
      if (options.kind !== 'all' && memory.kind !== options.kind) continue;
      if (labels && !labels.every(([name, value]) => memory.labels[name] === value)) continue;
      levels.set(position, new Array<number>(options.lexemes.length).fill(0));
    }
    options.lexemes.forEach((lexeme, lexemeIndex) => {
      const posting = this.postings.get(lexeme);
      if (!posting) return;
      posting.memories.forEach((position, index) => {
        const row = levels.get(position);
        if (row) row[lexemeIndex] = posting.levels[index]!;
      });
    });
    const hits: LexemeHit[] = [...levels.keys()]
      .sort((left, right) => left - right)
      .map((position) => {
        const memory = this.memories[position]!;
        return {
          id: memory.id,
          kind: memory.kind,
          about: memory.about,
          created_at: memory.created_at,
          said: memory.said,
          passage: memory.passage,
          slot: memory.slot,
          dated: memory.dated,
          reported: memory.reported,
          levels: levels.get(position)!,
        };
      });
    return { hits, total: hits.length ? this.memories.length : 0, counts };
  }

  /**
   * Cover density as Postgres's ts_rank_cd gives it for a query of lexemes joined by OR,
   * weights {0.1, 0.2, 0.4, 1.0} and normalisation 32: each position of a query lexeme is a
   * cover of its own and adds its weight; the sum s is given as s / (s + 1).
   */
  rank(ids: number[], lexemes: string[]): Map<number, number> {
    const sums = new Map<number, number>();
    for (const id of ids) if (this.positionOf.has(id)) sums.set(this.positionOf.get(id)!, 0);
    for (const lexeme of lexemes) {
      const posting = this.postings.get(lexeme);
      if (!posting) continue;
      posting.memories.forEach((position, index) => {
        const sum = sums.get(position);
        if (sum !== undefined) sums.set(position, sum + posting.weights[index]!);
      });
    }
    const ranks = new Map<number, number>();
    for (const [position, sum] of sums) ranks.set(this.memories[position]!.id, sum / (sum + 1));
    return ranks;
  }
}

const WEIGHT_VALUES: Record<string, number> = { A: 1, B: 0.4, C: 0.2, D: 0.1 };
/** One lexeme of a tsvector's text: 'word':1A,5,7C (no positions for the broader words). */
const TSV_ENTRY = /'((?:[^'\\]|''|\\.)*)'(?::([\d,A-D]+))?/g;

/** The lexemes of a tsvector's text form, with their levels and weights. */
export function parseTsvector(text: string): { levels: Map<string, number>; weights: Map<string, number> } {
  const levels = new Map<string, number>();
  const weights = new Map<string, number>();
  for (const match of text.matchAll(TSV_ENTRY)) {
    const lexeme = match[1]!.replace(/''/g, "'").replace(/\\(.)/g, '$1');
    const positions = match[2];
    if (positions === undefined) {
      // Broader words have no positions: they stand for the memory's own words, and add no cover.
      levels.set(lexeme, 3);
      continue;
    }
    let level = 0;
    let sum = 0;
    for (const position of positions.split(',')) {
      const weight = /[A-D]$/.test(position) ? position.at(-1)! : 'D';
      level = Math.max(level, weight === 'A' || weight === 'B' ? 3 : weight === 'C' ? 2 : 1);
      sum += WEIGHT_VALUES[weight]!;
    }
    levels.set(lexeme, level);
    weights.set(lexeme, sum);
  }
  return { levels, weights };
}

/** Spaces with more current memories than this are searched in the store only. */
const MAX_SPACE = 20_000;
/** At most this many memories are held over all copies by default (ENGRAM_RECALL_CACHE_MEMORIES); the least recently used copies go first. */
const MAX_HELD = 100_000;
/** A stale copy is rebuilt at most this often per space. */
const REBUILD_MS = 2_000;

/** The copies of one process, by account and space. */
export class MemoryIndexCache {
  private readonly copies = new Map<string, SpaceIndex>();
  private readonly building = new Map<string, number>();
  private held = 0;

  constructor(
    private limits: { maxSpace: number; maxHeld: number; rebuildMs: number } = {
      maxSpace: MAX_SPACE,
      maxHeld: MAX_HELD,
      rebuildMs: REBUILD_MS,
    },
  ) {}

  /** Holds at most `maxHeld` memories in all (0 holds none: recall reads the store), dropping copies beyond it. */
  configure({ maxHeld }: { maxHeld: number }): void {
    this.limits = { ...this.limits, maxHeld, maxSpace: Math.min(MAX_SPACE, maxHeld) };
    if (maxHeld === 0) this.clear();
  }

  /**
   * The copy of the space at `version`, or null; a missing or stale copy is rebuilt in the
   * background (`wait` builds it first, for tests and warm-up).
   */
  async current(db: Db, scope: Scope, version: string | null, options: { wait?: boolean } = {}): Promise<SpaceIndex | null> {
    if (version === null || this.limits.maxHeld === 0) return null;
    const key = `${scope.accountId}\u0000${scope.space}`;
    const copy = this.copies.get(key);
    if (copy?.version === version) {
      // Most recently used last.
      this.copies.delete(key);
      this.copies.set(key, copy);
      return copy;
    }
    const started = this.building.get(key);
    if (started !== undefined && (started === Infinity || Date.now() - started < this.limits.rebuildMs)) return null;
    if (this.building.size > 10_000) {
      // Forget when spaces long since rebuilt were last rebuilt: only recent times matter.
      for (const [other, at] of this.building) if (at !== Infinity && Date.now() - at >= this.limits.rebuildMs) this.building.delete(other);
    }
    this.building.set(key, Infinity);
    const build = this.build(db, scope, key)
      .catch(() => null)
      .finally(() => this.building.set(key, Date.now()));
    if (!options.wait) return null;
    const built = await build;
    return built?.version === version ? built : null;
  }

  private async build(db: Db, scope: Scope, key: string): Promise<SpaceIndex | null> {
    // The version is read before the memories: a change between the two reads makes the
    // copy newer than its version says, which only costs one more rebuild.
    const { rows: versions } = await sql<{ version: string; count: number }>`
      select s.memories_version::text as version,
        (select count(*)::int from memories m where m.account_id = s.account_id and m.space = s.name and m.status = 'current') as count
      from spaces s where s.account_id = ${scope.accountId} and s.name = ${scope.space}`.execute(db);
    const found = versions[0];
    if (!found || found.count > this.limits.maxSpace) {
      this.drop(key);
      return null;
    }
    const { rows } = await sql<HitRow>`
      select ${hitColumns} from memories m
      where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current'
      order by m.id`.execute(db);
    const memories = rows.map((row) => ({ ...hitOf(row), labels: row.labels ?? {}, ...parseTsvector(row.tsv) }));
    const copy = new SpaceIndex(found.version, memories);
    this.drop(key);
    this.copies.set(key, copy);
    this.held += memories.length;
    for (const oldest of [...this.copies.keys()]) {
      if (this.held <= this.limits.maxHeld || oldest === key) break;
      this.drop(oldest);
    }
    return copy;
  }

  private drop(key: string): void {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.held -= copy.memories.length;
    this.copies.delete(key);
  }

  /** Forgets every copy (tests). */
  clear(): void {
    this.copies.clear();
    this.building.clear();
    this.held = 0;
  }
}

const caches = new WeakMap<Db, MemoryIndexCache>();

/**
 * The copies this process holds for one store. Two stores in one process (tests, embedders)
 * may both have an account 1 with a space "", and versions from two sequences may meet: so
 * each store has its own copies.
 */
export function memoryIndexOf(db: Db): MemoryIndexCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new MemoryIndexCache();
    caches.set(db, cache);
  }
  return cache;
}

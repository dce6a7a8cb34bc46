import type { Labels, MemoryKind } from '@engram/protocol';
import { sql } from 'kysely';
import { type Db, primaryOf } from './database.js';
import { type HitRow, hitColumns, hitOf, type LexemeHit, type LexemeSearch, SAID_BROUGHT } from './memory-repository.js';
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
  /** Lexeme → the summed weights of its positions in tenths (A 10, B 4, C 2, D 1), for cover density. */
  weights: Map<string, number>;
}

/**
 * The memories holding one lexeme (positions in the copy, in the order added), with its level
 * and cover weight in each (in tenths: the weights are tenths, and so are their sums). The
 * arrays grow as memories are added; `length` of them are used.
 */
interface Posting {
  memories: Int32Array;
  levels: Uint8Array;
  tenths: Uint16Array;
  length: number;
}

/** Above this many memories holding a question's words, only its rarer words bring memories in (see `bringers`). */
const MAX_CANDIDATES = 5_000;

/** Memories a copy may hold removed (their postings not yet dropped) before it is rebuilt whole. */
const MAX_REMOVED_SHARE = 0.25;

const NO_LABELS: Labels = Object.freeze({}) as Labels;

/**
 * A space's copy at one version: the memories, and for each lexeme the memories holding it.
 * It is built whole once, then kept true by `apply`: memories added go at the end, memories
 * removed or changed leave a gap (changed ones are added again), so that a change costs what
 * it changed, not the size of the space.
 */
export class SpaceIndex {
  /** The memories by position; null where one was removed. */
  private readonly memories: (IndexedMemory | null)[] = [];
  private readonly postings = new Map<string, Posting>();
  private readonly positionOf = new Map<number, number>();
  private removed = 0;

  constructor(
    public version: string,
    parsed: ParsedMemory[] = [],
  ) {
    this.append(parsed);
  }

  /**
   * Adds memories at the end (a build reads a space in chunks: see BUILD_CHUNK). Each lexeme's
   * postings grow in place; `compact` trims them to size once the last chunk is in.
   */
  append(memories: ParsedMemory[]): void {
    for (const memory of memories) {
      const position = this.memories.push(indexed(memory)) - 1;
      this.positionOf.set(memory.id, position);
      for (const [lexeme, level] of memory.levels) {
        let posting = this.postings.get(lexeme);
        if (!posting) {
          posting = { memories: new Int32Array(4), levels: new Uint8Array(4), tenths: new Uint16Array(4), length: 0 };
          this.postings.set(lexeme, posting);
        } else if (posting.length === posting.memories.length) {
          const capacity = Math.ceil(posting.length * 1.5) + 4;
          posting.memories = grow(posting.memories, new Int32Array(capacity));
          posting.levels = grow(posting.levels, new Uint8Array(capacity));
          posting.tenths = grow(posting.tenths, new Uint16Array(capacity));
        }
        posting.memories[posting.length] = position;
        posting.levels[posting.length] = level;
        posting.tenths[posting.length] = memory.weights.get(lexeme) ?? 0;
        posting.length += 1;
      }
    }
  }

  /** Trims every lexeme's postings to what they hold (after a build: the room grown for more is not needed until a change). */
  compact(): void {
    for (const posting of this.postings.values()) {
      if (posting.memories.length === posting.length) continue;
      posting.memories = posting.memories.slice(0, posting.length);
      posting.levels = posting.levels.slice(0, posting.length);
      posting.tenths = posting.tenths.slice(0, posting.length);
    }
  }

  /** How many memories the copy holds. */
  get size(): number {
    return this.memories.length - this.removed;
  }

  /** The ids of the memories held, ascending (tests). */
  ids(): number[] {
    return [...this.positionOf.keys()].sort((left, right) => left - right);
  }

  /**
   * Brings the copy to `version`: the memories `changed` names are taken out, and those of them
   * in `current` (their rows as they are now) put back. False when so much has been taken out
   * that the copy should be rebuilt whole instead (it is then left as it was).
   */
  apply(version: string, changed: Iterable<number>, current: ParsedMemory[]): boolean {
    let removing = 0;
    for (const id of changed) if (this.positionOf.has(id)) removing += 1;
    if (this.removed + removing > Math.max(1_000, MAX_REMOVED_SHARE * this.memories.length)) return false;
    for (const id of changed) {
      const position = this.positionOf.get(id);
      if (position === undefined) continue;
      this.positionOf.delete(id);
      this.memories[position] = null;
      this.removed += 1;
    }
    this.append(current);
    this.version = version;
    return true;
  }

  /** How many memories held hold the lexeme. */
  private count(posting: Posting | undefined): number {
    if (!posting) return 0;
    if (!this.removed) return posting.length;
    let count = 0;
    for (let index = 0; index < posting.length; index++) if (this.memories[posting.memories[index]!]) count += 1;
    return count;
  }

  /** The same answer as `searchMemories` in memory-repository.ts, from the copy. */
  search(options: LexemeSearch): { hits: LexemeHit[]; total: number; counts: Map<string, number> } {
    const labels = options.labels && Object.keys(options.labels).length ? Object.entries(options.labels) : null;
    const bringing = options.lexemes.filter((lexeme) => !options.scoreOnly?.has(lexeme));
    const counted = bringing.length ? options.lexemes.filter((lexeme) => options.scoreOnly?.has(lexeme)) : [];
    const counts = new Map(counted.map((lexeme) => [lexeme, this.count(this.postings.get(lexeme))]));
    // Flat typed arrays, not a Set and a Map of arrays: a common word brings in tens of thousands
    // of memories in a large space. `hitOf[position]` is 1 + the memory's place among the hits,
    // or -1 when it was looked at and left out (removed, another kind, other labels).
    const hitOf = new Int32Array(this.memories.length);
    const found: number[] = [];
    for (const lexeme of this.bringers(bringing.length ? bringing : options.lexemes, counts)) {
      const posting = this.postings.get(lexeme);
      if (!posting) continue;
      const factOnly = options.factOnly?.has(lexeme) ?? false;
      for (let index = 0; index < posting.length; index++) {
        if (factOnly && posting.levels[index] !== 3) continue;
        const position = posting.memories[index]!;
        if (hitOf[position] !== 0) continue;
        const memory = this.memories[position];
        if (
          !memory ||
          (options.kind !== 'all' && memory.kind !== options.kind) ||
          (labels && !labels.every(([name, value]) => memory.labels[name] === value))
        ) {
          hitOf[position] = -1;
          continue;
        }
        hitOf[position] = found.push(position);
      }
    }
    if (options.said) this.bringSaid(options.said, options, labels, hitOf, found);
    const width = options.lexemes.length;
    const levels = new Uint8Array(found.length * width);
    for (let lexemeIndex = 0; lexemeIndex < width; lexemeIndex++) {
      const posting = this.postings.get(options.lexemes[lexemeIndex]!);
      if (!posting) continue;
      const { memories, levels: postingLevels, length } = posting;
      for (let index = 0; index < length; index++) {
        const place = hitOf[memories[index]!]!;
        if (place > 0) levels[(place - 1) * width + lexemeIndex] = postingLevels[index]!;
      }
    }
    // By id, as the store answers: each hit's id and place in one number, id * places + place
    // (exact in a double: ids are below 2^31, a copy holds far fewer than 2^21 memories), sorted
    // as numbers.
    const places = found.length;
    const keys = new Float64Array(places);
    for (let place = 0; place < places; place++) keys[place] = this.memories[found[place]!]!.id * places + place;
    keys.sort();
    const hits = new Array<LexemeHit>(keys.length);
    for (let order = 0; order < places; order++) {
      const place = keys[order]! % places;
      const memory = this.memories[found[place]!]!;
      const from = place * width;
      const hitLevels = new Array<number>(width);
      for (let index = 0; index < width; index++) hitLevels[index] = levels[from + index]!;
      hits[order] = {
        id: memory.id,
        kind: memory.kind,
        about: memory.about,
        created_at: memory.created_at,
        said: memory.said,
        passage: memory.passage,
        slot: memory.slot,
        dated: memory.dated,
        reported: memory.reported,
        levels: hitLevels,
      };
    }
    return { hits, total: hits.length ? this.size : 0, counts };
  }

  /** Brings in the memories said in a span (see LexemeSearch.said), the newest first, as the store does. */
  private bringSaid(
    span: { start: number; end: number },
    options: LexemeSearch,
    labels: [string, string][] | null,
    hitOf: Int32Array,
    found: number[],
  ): void {
    const inSpan: number[] = [];
    this.memories.forEach((memory, position) => {
      if (!memory || memory.said < span.start || memory.said >= span.end) return;
      if (options.kind !== 'all' && memory.kind !== options.kind) return;
      if (labels && !labels.every(([name, value]) => memory.labels[name] === value)) return;
      inSpan.push(position);
    });
    inSpan.sort(
      (left, right) => this.memories[right]!.said - this.memories[left]!.said || this.memories[right]!.id - this.memories[left]!.id,
    );
    for (const position of inSpan.slice(0, SAID_BROUGHT)) if (hitOf[position] === 0) hitOf[position] = found.push(position);
  }

  /**
   * The lexemes that bring memories in. In a large space a question's common words hold tens
   * of thousands of memories each, and scoring them all costs more than the rest of recall: when
   * the lexemes hold more than MAX_CANDIDATES memories in all, the rarer ones bring memories in
   * (at least the rarest) and the more common ones only score what those brought, like names;
   * their counts are given (`counts`), so they weigh exactly as rare as they are. A memory
   * sharing only a question's most common words is then not found, which in a space this large
   * is one of thousands that rank low. Smaller spaces, and questions with rarer words, are
   * searched in full, exactly as the store's own search.
   */
  private bringers(lexemes: string[], counts: Map<string, number>): string[] {
    const sizes = lexemes.map((lexeme) => this.postings.get(lexeme)?.length ?? 0);
    if (sizes.reduce((sum, size) => sum + size, 0) <= MAX_CANDIDATES) return lexemes;
    const rarestFirst = lexemes.map((lexeme, index) => ({ lexeme, size: sizes[index]! })).sort((left, right) => left.size - right.size);
    const bringing: string[] = [];
    let held = 0;
    for (const { lexeme, size } of rarestFirst) {
      if (bringing.length && held + size > MAX_CANDIDATES) {
        counts.set(lexeme, this.count(this.postings.get(lexeme)));
        continue;
      }
      bringing.push(lexeme);
      held += size;
    }
    return bringing;
  }

  /**
   * Cover density as Postgres's ts_rank_cd gives it for a query of lexemes joined by OR,
   * weights {0.1, 0.2, 0.4, 1.0} and normalisation 32: each position of a query lexeme is a
   * cover of its own and adds its weight; the sum s is given as s / (s + 1).
   */
  rank(ids: number[], lexemes: string[]): Map<number, number> {
    // A lexeme's postings are in the order of positions (memories are only ever added at the
    // end): each memory ranked is found in them by bisection, not by walking them all.
    const positions = [...new Set(ids.filter((id) => this.positionOf.has(id)).map((id) => this.positionOf.get(id)!))];
    const sums = new Array<number>(positions.length).fill(0);
    for (const lexeme of lexemes) {
      const posting = this.postings.get(lexeme);
      if (!posting) continue;
      positions.forEach((position, index) => {
        const at = bisect(posting.memories, posting.length, position);
        if (at < posting.length && posting.memories[at] === position) sums[index]! += posting.tenths[at]!;
      });
    }
    const ranks = new Map<number, number>();
    positions.forEach((position, index) => {
      const sum = sums[index]! / 10;
      ranks.set(this.memories[position]!.id, sum / (sum + 1));
    });
    return ranks;
  }
}

/** The first index below `length` whose value is at least `value` (`length` when none is), in ascending `values`. */
function bisect(values: Int32Array, length: number, value: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** What the copy keeps of a parsed memory (labels shared when there are none). */
function indexed(memory: ParsedMemory): IndexedMemory {
  // Written out field by field, not spread: every memory of a copy then has one shape, which
  // recall reads thousands of times a question far faster than the spread's dictionary objects.
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
    labels: Object.keys(memory.labels).length ? memory.labels : NO_LABELS,
  };
}

function grow<T extends Int32Array | Uint8Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Position weights in tenths: A 1, B 0.4, C 0.2, D 0.1. */
const WEIGHT_TENTHS: Record<string, number> = { A: 10, B: 4, C: 2, D: 1 };
/** One lexeme of a tsvector's text: 'word':1A,5,7C (no positions for the broader words). */
const TSV_ENTRY = /'((?:[^'\\]|''|\\.)*)'(?::([\d,A-D]+))?/g;

/** The lexemes of a tsvector's text form, with their levels and weights (in tenths). */
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
      sum += WEIGHT_TENTHS[weight]!;
    }
    levels.set(lexeme, level);
    weights.set(lexeme, sum);
  }
  return { levels, weights };
}

/** Memories read per statement when a copy is built. */
const BUILD_CHUNK = 2_000;
/** Spaces with more current memories than this are searched in the store only. */
const MAX_SPACE = 1_000_000;
/** At most this many memories are held over all copies by default (ENGRAM_RECALL_CACHE_MEMORIES); the least recently used copies go first. */
const MAX_HELD = 100_000;
/** A copy that cannot be brought up to date is rebuilt at most this often per space. */
const REBUILD_MS = 2_000;
/** A copy is brought up to date by the memories changed since its version when there are at most this many. */
const MAX_CHANGES = 20_000;
/**
 * A copy not brought up to date for this long is rebuilt whole: the store keeps the memories
 * each version changed for an hour (see migration 16 and jobs/housekeeping.ts).
 */
const FRESH_FOR_MS = 30 * 60_000;

/** The copies of one process, by account and space. */
export class MemoryIndexCache {
  private readonly copies = new Map<string, SpaceIndex>();
  private readonly building = new Map<string, number>();
  /** When each copy was last read from the store or brought up to date. */
  private readonly refreshed = new Map<string, number>();
  /** Copies being brought up to date: every request of that space waits for the same one. */
  private readonly refreshing = new Map<string, Promise<SpaceIndex | null>>();
  private held = 0;

  constructor(
    private limits: { maxSpace: number; maxHeld: number; rebuildMs: number; buildChunk?: number } = {
      maxSpace: MAX_SPACE,
      maxHeld: MAX_HELD,
      rebuildMs: REBUILD_MS,
    },
  ) {}

  /** Holds at most `maxHeld` memories in all (0 holds none: recall reads the store), dropping copies beyond it. */
  configure({ maxHeld }: { maxHeld: number }): void {
    this.limits = { ...this.limits, maxHeld, maxSpace: Math.min(MAX_SPACE, maxHeld) };
    if (maxHeld === 0) this.clear();
    else this.trim(null);
  }

  /** How many memories the copies hold in all. */
  get heldMemories(): number {
    return this.held;
  }

  /**
   * The copy of the space at `version` (or newer), or null. A copy a few changes behind is
   * brought up to date first, by what changed (the request waits a few milliseconds); a
   * missing copy, or one too far behind, is rebuilt in the background (`wait` builds it
   * first, for tests and warm-up) and recall reads the store meanwhile.
   */
  async current(db: Db, scope: Scope, version: string | null, options: { wait?: boolean } = {}): Promise<SpaceIndex | null> {
    if (version === null || this.limits.maxHeld === 0) return null;
    const key = `${scope.accountId}\u0000${scope.space}`;
    let copy = this.copies.get(key);
    if (copy && BigInt(copy.version) < BigInt(version) && Date.now() - (this.refreshed.get(key) ?? 0) < FRESH_FOR_MS) {
      let refresh = this.refreshing.get(key);
      if (!refresh) {
        refresh = this.refresh(db, scope, key, copy)
          .catch(() => null)
          .finally(() => this.refreshing.delete(key));
        this.refreshing.set(key, refresh);
      }
      copy = (await refresh) ?? undefined;
      if (copy && this.copies.get(key) !== copy) copy = undefined;
    }
    if (copy && BigInt(copy.version) >= BigInt(version)) {
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
    return built && BigInt(built.version) >= BigInt(version) ? built : null;
  }

  /** Applies to a copy the memories changed since its version; null when it must be rebuilt whole instead. */
  private async refresh(db: Db, scope: Scope, key: string, copy: SpaceIndex): Promise<SpaceIndex | null> {
    // As in `build`, the version is read before what changed: a change between the two reads
    // is applied early, which only costs applying it once more.
    const { rows: found } = await sql<{ version: string; ids: number[] }>`
      select s.memories_version::text as version,
        array(select distinct c.memory_id from memory_changes c
          where c.account_id = s.account_id and c.space = s.name and c.version > ${copy.version}::bigint
          limit ${MAX_CHANGES + 1}) as ids
      from spaces s where s.account_id = ${scope.accountId} and s.name = ${scope.space}`.execute(db);
    const changes = found[0];
    if (!changes || changes.ids.length > MAX_CHANGES) return null;
    const before = copy.size;
    if (changes.ids.length) {
      const { rows } = await sql<HitRow>`
        select ${hitColumns} from memories m
        where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current' and m.id = any(${changes.ids}::int[])
        order by m.id`.execute(db);
      if (!copy.apply(changes.version, changes.ids, rows.map(parseRow))) return null;
    } else {
      copy.version = changes.version;
    }
    if (this.copies.get(key) !== copy) return copy;
    this.held += copy.size - before;
    this.refreshed.set(key, Date.now());
    if (copy.size > this.limits.maxSpace) {
      this.drop(key);
      return null;
    }
    this.trim(key);
    return copy;
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
    // Read in chunks by id: a request waiting for the embedded store's one connection gets it
    // between two, and neither the store nor this process holds the whole space's rows at once.
    // A memory changed meanwhile is newer than the version read first: the next refresh applies
    // it again, as any change after the version.
    const copy = new SpaceIndex(found.version);
    const chunk = this.limits.buildChunk ?? BUILD_CHUNK;
    for (let after = 0; ; ) {
      const { rows } = await sql<HitRow>`
        select ${hitColumns} from memories m
        where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current' and m.id > ${after}
        order by m.id limit ${chunk}`.execute(db);
      copy.append(rows.map(parseRow));
      const last = rows.at(-1);
      if (last === undefined || rows.length < chunk) break;
      after = last.id;
    }
    copy.compact();
    this.drop(key);
    this.copies.set(key, copy);
    this.refreshed.set(key, Date.now());
    this.held += copy.size;
    this.trim(key);
    return copy;
  }

  /** Drops the least recently used copies (never `keep`) until the copies hold at most `maxHeld`. */
  private trim(keep: string | null): void {
    for (const oldest of [...this.copies.keys()]) {
      if (this.held <= this.limits.maxHeld) break;
      if (oldest !== keep) this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.held -= copy.size;
    this.copies.delete(key);
    this.refreshed.delete(key);
  }

  /** Forgets every copy (tests). */
  clear(): void {
    this.copies.clear();
    this.building.clear();
    this.refreshed.clear();
    this.held = 0;
  }
}

/** A row of `hitColumns` as a copy holds it. */
function parseRow(row: HitRow): ParsedMemory {
  return { ...hitOf(row), labels: row.labels ?? {}, ...parseTsvector(row.tsv) };
}

const caches = new WeakMap<Db, MemoryIndexCache>();

/**
 * The copies this process holds for one store. Two stores in one process (tests, embedders)
 * may both have an account 1 with a space "", and versions from two sequences may meet: so
 * each store has its own copies.
 */
export function memoryIndexOf(db: Db): MemoryIndexCache {
  db = primaryOf(db);
  let cache = caches.get(db);
  if (!cache) {
    cache = new MemoryIndexCache();
    caches.set(db, cache);
  }
  return cache;
}

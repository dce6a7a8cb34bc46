import { Buffer } from 'node:buffer';
import type { Labels, MemoryKind } from '@engram/protocol';
import { sql } from 'kysely';
import { type Db, primaryOf } from './database.js';
import { HIT_DATED as DATED, emptyColumns, type HitColumns, hitsOf, HIT_REPORTED as REPORTED, splitPassage } from './hit-columns.js';
import { type HitRow, hitColumns, hitOf, type LexemeHit, type LexemeSearch, SAID_BROUGHT, SLOTS_BROUGHT } from './memory-repository.js';
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
 * the current one. A copy a few changes behind is brought up to date by what changed; a
 * missing one is built once, every request of the space waiting for that one build; a space
 * written to faster than it can be rebuilt is rebuilt at most once every REBUILD_MS, and is
 * searched in the store meanwhile, so that it is not read whole over and over.
 */

/** Flags of a memory in a copy, beside DATED and REPORTED (hit-columns' own, so a hit's flags are copied as they are). */
const REMOVED = 4;

/** Above this many memories holding a question's words, only its rarer words bring memories in (see `bringers`). */
const MAX_CANDIDATES = 5_000;

/** Memories a copy may hold removed (their postings not yet dropped) before it is rebuilt whole. */
const MAX_REMOVED_SHARE = 0.25;

/** Postings added by `apply` are held per lexeme until there are more than this many and more than an eighth of the shared ones, then join the shared arrays. */
const MIN_TAIL_MERGE = 50_000;

const NO_LABELS: Labels = Object.freeze({}) as Labels;

/**
 * What a memory is about as one vector, from the lexemes of its tsvector (recall's word vectors:
 * recall/dense.ts sets it with `useMemoryVectors`; without it a copy holds no vectors). A copy
 * keeps each memory's vector as int8 values beside its other columns.
 */
export interface MemoryVectors {
  readonly dimensions: number;
  /** The word vector's row of a lexeme, or -1: asked once per lexeme of a copy. */
  rowOf(lexeme: string): number;
  /**
   * Writes the vector of a memory's lexemes (`rows[i]` of each, -1 for none, at `levels[i]`, only
   * the positioned ones being words the memory says) into `values` at `at`; returns 1 / its length, or 0 for none.
   */
  write(
    memory: {
      rows: Int32Array;
      levels: readonly number[];
      positioned: readonly boolean[];
      lexemes: readonly string[];
      count: number;
      about: readonly string[];
    },
    values: Int8Array,
    at: number,
  ): number;
}

let memoryVectors: MemoryVectors | null = null;

/** Sets how copies built from now on make their memories' vectors (recall/dense.ts). */
export function useMemoryVectors(vectors: MemoryVectors | null): void {
  memoryVectors = vectors;
}

/**
 * Postings added after a build (by `apply`), per lexeme: the memories' positions ascending, with
 * the lexeme's level and cover weight in each.
 */
interface Tail {
  positions: number[];
  levels: number[];
  tenths: number[];
}

/** Values many memories share (their kinds, names, labels, sources, slots), each held once and known by its number. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly numbers = new Map<string, number>();

  numberOf(key: string, value: (key: string) => T): number {
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.values.push(value(key)) - 1;
      this.numbers.set(detached(key), number);
    }
    return number;
  }
}

/**
 * A copy of the string that shares no memory with the text it was cut from: V8 keeps a long
 * slice as a view of its whole text, and a copy must not hold every tsvector it read alive.
 */
function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}

/** `array` with room for at least `needed` values (its values kept), growing by a quarter at a time. */
function room<T extends Int32Array | Uint8Array | Uint16Array | Float64Array | Int8Array | Float32Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(Math.max(needed, Math.ceil(array.length * 1.25) + 1_024));
  grown.set(array);
  return grown;
}

/** The first index in [from, to) whose value is at least `value` (`to` when none is), in ascending `values`. */
function bisect(values: ArrayLike<number>, from: number, to: number, value: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Positions a search collects, in the order found: kept by a copy from one search to the next, as its marks are. */
class Positions {
  values = new Int32Array(1_024);
  length = 0;

  /** Adds a position; returns how many there are now (as an array's `push`). */
  push(position: number): number {
    if (this.length === this.values.length) this.values = room(this.values, this.length + 1);
    this.values[this.length] = position;
    this.length += 1;
    return this.length;
  }
}

/**
 * A space's copy at one version. Its memories are columns by position (typed arrays, with the
 * values many share, such as names, labels and sources, held once), and for each lexeme the
 * positions of the memories holding it, with its level and cover weight in each, are one range
 * of arrays all lexemes share. At 100k memories this is a third of the heap of an object per
 * memory and arrays per lexeme.
 *
 * It is built whole once (`appendRows` chunk by chunk, then `compact`), then kept true by
 * `apply`: memories added go at the end, memories removed or changed are marked removed
 * (changed ones are added again), so that a change costs what it changed, not the size of the
 * space. Postings added after the build are held per lexeme until they are many, and then join
 * the shared arrays.
 */
export class SpaceIndex {
  /** Positions used; `removed` of them are memories removed. */
  private length = 0;
  private removed = 0;
  private idAt = new Int32Array(0);
  private kindAt = new Uint8Array(0);
  private flagsAt = new Uint8Array(0);
  private createdAt = new Float64Array(0);
  private saidAt = new Float64Array(0);
  private aboutAt = new Int32Array(0);
  private labelsAt = new Int32Array(0);
  /** The slot's number in `texts`, or -1 for none. */
  private slotAt = new Int32Array(0);
  /** The passage: its source's number in `texts` with `passageIndexAt` the message's index, the whole passage's number when that is -1, or -1 for none (a memory alone). */
  private passageTextAt = new Int32Array(0);
  private passageIndexAt = new Int32Array(0);
  private readonly kinds = new Interned<MemoryKind>();
  private readonly abouts = new Interned<string[]>();
  private readonly labelSets = new Interned<Labels>();
  private readonly texts = new Interned<string>();
  /** Positions below this hold ascending ids (those a build read) and are found by bisection; those after by `added`. */
  private sorted = 0;
  private readonly added = new Map<number, number>();

  private readonly lexemes = new Map<string, number>();
  /** Lexeme n's shared postings are at [starts[n], starts[n + 1]) (lexemes newer than the arrays have none). */
  private starts = new Int32Array(1);
  private postingPositions = new Int32Array(0);
  private postingLevels = new Uint8Array(0);
  private postingTenths = new Uint16Array(0);
  /** While a copy is built: each memory's lexemes, levels and weights, read in order, and where each memory's begin. */
  private building: { lexemes: Int32Array; levels: Uint8Array; tenths: Uint16Array; length: number; firstOf: Int32Array } | null = {
    lexemes: new Int32Array(0),
    levels: new Uint8Array(0),
    tenths: new Uint16Array(0),
    length: 0,
    firstOf: new Int32Array(0),
  };
  private readonly tails = new Map<number, Tail>();
  private tailed = 0;
  /** A search's marks by position (see `search`), all 0 between searches. */
  private marks = new Int32Array(0);
  /** The positions a search found and those it looked at and left out (see `searchColumns`), emptied by each search. */
  private readonly found = new Positions();
  private readonly left = new Positions();
  /** How memories' vectors are made (see MemoryVectors), and their values (`dimensions` a memory) and inverse lengths (0: none) by position. */
  private readonly vectors = memoryVectors;
  private readonly dimensions = memoryVectors?.dimensions ?? 0;
  private vectorValues = new Int8Array(0);
  private vectorInverse = new Float32Array(0);
  /** Each lexeme's word-vector row by its number, -1 for none, -2 not yet asked. */
  private lexemeRows = new Int32Array(0);
  private readonly rowScratch = new Int32Array(4_096);

  /**
   * `expected`: how many memories a build is about to read (the columns are made that long at
   * once); `mergeAt`: how many postings added later are held apart before they join the shared
   * arrays (tests; by default MIN_TAIL_MERGE or an eighth of the shared ones).
   */
  constructor(
    public version: string,
    expected = 0,
    private readonly mergeAt?: number,
  ) {
    this.labelSets.numberOf('{}', () => NO_LABELS);
    this.columnsFor(expected);
  }

  /**
   * Adds memories at the end, their tsvectors read straight into postings (a build reads a space
   * in chunks: see BUILD_CHUNK; `compact` lays the postings out once the last chunk is in).
   */
  appendRows(rows: readonly HitRow[]): void {
    for (const row of rows) {
      const position = this.length;
      this.length += 1;
      this.columnsFor(this.length);
      this.idAt[position] = row.id;
      this.kindAt[position] = this.kinds.numberOf(row.kind, (kind) => kind as MemoryKind);
      this.flagsAt[position] = (hitOf(row).dated ? DATED : 0) | (row.reported ? REPORTED : 0);
      this.createdAt[position] = row.created_at;
      this.saidAt[position] = row.said;
      this.aboutAt[position] = this.abouts.numberOf(JSON.stringify(row.about), () => row.about);
      const labels = row.labels && Object.keys(row.labels).length ? row.labels : null;
      this.labelsAt[position] = labels ? this.labelSets.numberOf(JSON.stringify(labels), () => labels) : 0;
      this.slotAt[position] = row.slot === null ? -1 : this.texts.numberOf(row.slot, detached);
      this.setPassage(position, row.passage);
      const count = readTsvector(row.tsv);
      if (this.dimensions) this.setVector(position, count, row.about);
      const building = this.building;
      if (building) {
        building.firstOf = room(building.firstOf, position + 2);
        building.firstOf[position] = building.length;
        const end = building.length + count;
        building.lexemes = room(building.lexemes, end);
        building.levels = room(building.levels, end);
        building.tenths = room(building.tenths, end);
        for (let index = 0; index < count; index++) {
          building.lexemes[building.length] = this.lexemeNumber(scratch.lexemes[index]!);
          building.levels[building.length] = scratch.levels[index]!;
          building.tenths[building.length] = scratch.tenths[index]!;
          building.length += 1;
        }
        building.firstOf[position + 1] = building.length;
      } else {
        this.added.set(row.id, position);
        for (let index = 0; index < count; index++) {
          const lexeme = this.lexemeNumber(scratch.lexemes[index]!);
          let tail = this.tails.get(lexeme);
          if (!tail) {
            tail = { positions: [], levels: [], tenths: [] };
            this.tails.set(lexeme, tail);
          }
          tail.positions.push(position);
          tail.levels.push(scratch.levels[index]!);
          tail.tenths.push(scratch.tenths[index]!);
        }
        this.tailed += count;
      }
    }
  }

  /** The vector of the memory at `position`, from the lexemes `readTsvector` read last. */
  private setVector(position: number, count: number, about: readonly string[]): void {
    const vectors = this.vectors!;
    const rows = count <= this.rowScratch.length ? this.rowScratch : new Int32Array(count);
    for (let index = 0; index < count; index++) {
      const lexeme = scratch.lexemes[index]!;
      const number = this.lexemeNumber(lexeme);
      if (this.lexemeRows.length <= number) {
        const grown = room(this.lexemeRows, number + 1);
        grown.fill(-2, this.lexemeRows.length);
        this.lexemeRows = grown;
      }
      if (this.lexemeRows[number] === -2) this.lexemeRows[number] = vectors.rowOf(lexeme);
      rows[index] = this.lexemeRows[number]!;
    }
    const inverse = vectors.write(
      { rows, levels: scratch.levels, positioned: scratch.positioned, lexemes: scratch.lexemes, count, about },
      this.vectorValues,
      position * this.dimensions,
    );
    this.vectorInverse[position] = inverse;
  }

  /**
   * The cosine of a unit `query` and the vector of each memory of `ids` (0 for one without a
   * vector or not held), or null when the copy holds no vectors.
   */
  similarities(ids: Int32Array, length: number, query: Float32Array): Float32Array | null {
    const dimensions = this.dimensions;
    if (!dimensions || query.length !== dimensions) return null;
    const values = this.vectorValues;
    const found = new Float32Array(length);
    // The memories in id order (each id and its place in one number, as searchMarked sorts hits),
    // so that each is found by bisecting only what follows the one before, and their vectors are
    // read in the order they lie in memory: at 100k, looking each up alone cost more than the
    // products themselves.
    const keys = new Float64Array(length);
    for (let place = 0; place < length; place++) keys[place] = ids[place]! * length + place;
    keys.sort();
    let from = 0;
    for (let order = 0; order < length; order++) {
      const place = keys[order]! % length;
      const id = (keys[order]! - place) / length;
      let position = this.added.get(id);
      if (position === undefined) {
        from = bisect(this.idAt, from, this.sorted, id);
        if (from >= this.sorted || this.idAt[from] !== id || this.flagsAt[from]! & REMOVED) continue;
        position = from;
      }
      found[place] = this.cosineAt(position, query, values);
    }
    return found;
  }

  /**
   * `similarities` of the memories at `places` among `hits` this copy found (`searchColumns`):
   * the hits give their positions, so none is looked for by id, and they are read in the order of
   * places, which is by id, the order their vectors lie in. One removed since the search is looked
   * for by id as `similarities` does (a changed memory is held again further on).
   */
  similaritiesOfHits(hits: HitColumns, places: ArrayLike<number>, length: number, query: Float32Array): Float32Array | null {
    const dimensions = this.dimensions;
    if (!dimensions || query.length !== dimensions) return null;
    const positions = hits.position;
    if (!positions)
      return this.similarities(
        Int32Array.from({ length }, (_, index) => hits.id[places[index]!]!),
        length,
        query,
      );
    const values = this.vectorValues;
    const found = new Float32Array(length);
    // 1 + the place's index among those asked, by place.
    const asked = new Int32Array(hits.length);
    for (let index = 0; index < length; index++) asked[places[index]!] = index + 1;
    for (let place = 0; place < hits.length; place++) {
      const index = asked[place]! - 1;
      if (index === -1) continue;
      let position: number | undefined = positions[place]!;
      if (this.flagsAt[position]! & REMOVED) position = this.positionOf(hits.id[place]!);
      if (position !== undefined) found[index] = this.cosineAt(position, query, values);
    }
    return found;
  }

  /** The cosine of a unit `query` and the vector of the memory at `position` (0 for none). */
  private cosineAt(position: number, query: Float32Array, values: Int8Array): number {
    const dimensions = this.dimensions;
    const inverse = this.vectorInverse[position]!;
    if (inverse === 0) return 0;
    // Four sums side by side: independent additions run at once.
    const at = position * dimensions;
    let sum0 = 0;
    let sum1 = 0;
    let sum2 = 0;
    let sum3 = 0;
    let dimension = 0;
    for (; dimension + 3 < dimensions; dimension += 4) {
      sum0 += query[dimension]! * values[at + dimension]!;
      sum1 += query[dimension + 1]! * values[at + dimension + 1]!;
      sum2 += query[dimension + 2]! * values[at + dimension + 2]!;
      sum3 += query[dimension + 3]! * values[at + dimension + 3]!;
    }
    for (; dimension < dimensions; dimension++) sum0 += query[dimension]! * values[at + dimension]!;
    return (sum0 + sum1 + sum2 + sum3) * inverse;
  }

  private columnsFor(length: number): void {
    if (this.dimensions) {
      this.vectorValues = room(this.vectorValues, length * this.dimensions);
      this.vectorInverse = room(this.vectorInverse, length);
    }
    this.idAt = room(this.idAt, length);
    this.kindAt = room(this.kindAt, length);
    this.flagsAt = room(this.flagsAt, length);
    this.createdAt = room(this.createdAt, length);
    this.saidAt = room(this.saidAt, length);
    this.aboutAt = room(this.aboutAt, length);
    this.labelsAt = room(this.labelsAt, length);
    this.slotAt = room(this.slotAt, length);
    this.passageTextAt = room(this.passageTextAt, length);
    this.passageIndexAt = room(this.passageIndexAt, length);
  }

  /** Keeps a passage as its source and message index ("src_…:3"), or none, without a string per memory. */
  private setPassage(position: number, passage: string | null): void {
    if (passage === null) {
      this.passageTextAt[position] = -1;
      return;
    }
    const message = splitPassage(passage);
    if (message) {
      this.passageTextAt[position] = this.texts.numberOf(message.source, detached);
      this.passageIndexAt[position] = message.index;
    } else {
      this.passageTextAt[position] = this.texts.numberOf(passage, detached);
      this.passageIndexAt[position] = -1;
    }
  }

  private lexemeNumber(lexeme: string): number {
    let number = this.lexemes.get(lexeme);
    if (number === undefined) {
      number = this.lexemes.size;
      this.lexemes.set(detached(lexeme), number);
    }
    return number;
  }

  /**
   * Lays out the postings read by a build in the shared arrays, by lexeme and in the order of
   * positions, and trims the columns to what they hold (once, after the last chunk). Postings
   * added later (`apply`) join them when they are many (see MIN_TAIL_MERGE).
   */
  compact(): void {
    const building = this.building;
    if (!building) return;
    this.building = null;
    const lexemeCount = this.lexemes.size;
    const starts = new Int32Array(lexemeCount + 1);
    for (let entry = 0; entry < building.length; entry++) starts[building.lexemes[entry]! + 1]! += 1;
    for (let lexeme = 0; lexeme < lexemeCount; lexeme++) starts[lexeme + 1]! += starts[lexeme]!;
    const next = starts.slice(0, lexemeCount);
    const positions = new Int32Array(building.length);
    const levels = new Uint8Array(building.length);
    const tenths = new Uint16Array(building.length);
    for (let position = 0; position < this.length; position++) {
      const end = building.firstOf[position + 1]!;
      for (let entry = building.firstOf[position]!; entry < end; entry++) {
        const at = next[building.lexemes[entry]!]!;
        next[building.lexemes[entry]!] = at + 1;
        positions[at] = position;
        levels[at] = building.levels[entry]!;
        tenths[at] = building.tenths[entry]!;
      }
    }
    this.starts = starts;
    this.postingPositions = positions;
    this.postingLevels = levels;
    this.postingTenths = tenths;
    // A build reads by id: the ids are ascending, up to the first that is not (none, unless the store answered out of order).
    this.sorted = this.length;
    for (let position = 1; position < this.length; position++) {
      if (this.idAt[position]! > this.idAt[position - 1]!) continue;
      this.sorted = position;
      for (let late = position; late < this.length; late++) this.added.set(this.idAt[late]!, late);
      break;
    }
    this.idAt = this.idAt.slice(0, this.length);
    this.kindAt = this.kindAt.slice(0, this.length);
    this.flagsAt = this.flagsAt.slice(0, this.length);
    this.createdAt = this.createdAt.slice(0, this.length);
    this.saidAt = this.saidAt.slice(0, this.length);
    this.aboutAt = this.aboutAt.slice(0, this.length);
    this.labelsAt = this.labelsAt.slice(0, this.length);
    this.slotAt = this.slotAt.slice(0, this.length);
    if (this.dimensions) {
      this.vectorValues = this.vectorValues.slice(0, this.length * this.dimensions);
      this.vectorInverse = this.vectorInverse.slice(0, this.length);
    }
    this.passageTextAt = this.passageTextAt.slice(0, this.length);
    this.passageIndexAt = this.passageIndexAt.slice(0, this.length);
  }

  /** Moves the postings held per lexeme into the shared arrays: each lexeme's shared ones, then its later ones (at later positions). */
  private mergeTails(): void {
    const lexemeCount = this.lexemes.size;
    const old = this.starts;
    const oldCount = old.length - 1;
    const starts = new Int32Array(lexemeCount + 1);
    for (let lexeme = 0; lexeme < lexemeCount; lexeme++) {
      const shared = lexeme < oldCount ? old[lexeme + 1]! - old[lexeme]! : 0;
      starts[lexeme + 1] = starts[lexeme]! + shared + (this.tails.get(lexeme)?.positions.length ?? 0);
    }
    const total = starts[lexemeCount]!;
    const positions = new Int32Array(total);
    const levels = new Uint8Array(total);
    const tenths = new Uint16Array(total);
    for (let lexeme = 0; lexeme < lexemeCount; lexeme++) {
      let at = starts[lexeme]!;
      if (lexeme < oldCount) {
        const from = old[lexeme]!;
        const to = old[lexeme + 1]!;
        positions.set(this.postingPositions.subarray(from, to), at);
        levels.set(this.postingLevels.subarray(from, to), at);
        tenths.set(this.postingTenths.subarray(from, to), at);
        at += to - from;
      }
      const tail = this.tails.get(lexeme);
      if (tail) {
        positions.set(tail.positions, at);
        levels.set(tail.levels, at);
        tenths.set(tail.tenths, at);
      }
    }
    this.starts = starts;
    this.postingPositions = positions;
    this.postingLevels = levels;
    this.postingTenths = tenths;
    this.tails.clear();
    this.tailed = 0;
  }

  /** How many memories the copy holds. */
  get size(): number {
    return this.length - this.removed;
  }

  /** The ids of the memories held, ascending (tests). */
  ids(): number[] {
    const ids: number[] = [];
    for (let position = 0; position < this.length; position++) if (!(this.flagsAt[position]! & REMOVED)) ids.push(this.idAt[position]!);
    return ids.sort((left, right) => left - right);
  }

  /** Where the memory with this id is held, if it is. */
  private positionOf(id: number): number | undefined {
    const late = this.added.get(id);
    if (late !== undefined) return late;
    const at = bisect(this.idAt, 0, this.sorted, id);
    return at < this.sorted && this.idAt[at] === id && !(this.flagsAt[at]! & REMOVED) ? at : undefined;
  }

  /**
   * Brings the copy to `version`: the memories `changed` names are taken out, and those of them
   * in `current` (their rows as they are now) put back. False when so much has been taken out
   * that the copy should be rebuilt whole instead (it is then left as it was).
   */
  apply(version: string, changed: Iterable<number>, current: readonly HitRow[]): boolean {
    let removing = 0;
    for (const id of changed) if (this.positionOf(id) !== undefined) removing += 1;
    if (this.removed + removing > Math.max(1_000, MAX_REMOVED_SHARE * this.length)) return false;
    for (const id of changed) {
      const position = this.positionOf(id);
      if (position === undefined) continue;
      this.added.delete(id);
      this.flagsAt[position]! |= REMOVED;
      this.removed += 1;
    }
    this.appendRows(current);
    if (this.tailed > (this.mergeAt ?? Math.max(MIN_TAIL_MERGE, this.postingPositions.length / 8))) this.mergeTails();
    this.version = version;
    return true;
  }

  /** Calls `visit` with each memory holding the lexeme (removed ones too), in the order of positions, and its level there. */
  private postings(lexeme: number | undefined, visit: (position: number, level: number) => void): void {
    if (lexeme === undefined) return;
    if (lexeme + 1 < this.starts.length) {
      const to = this.starts[lexeme + 1]!;
      for (let index = this.starts[lexeme]!; index < to; index++) visit(this.postingPositions[index]!, this.postingLevels[index]!);
    }
    const tail = this.tails.get(lexeme);
    if (tail) for (let index = 0; index < tail.positions.length; index++) visit(tail.positions[index]!, tail.levels[index]!);
  }

  /** How many memories hold the lexeme, removed ones included. */
  private postingCount(lexeme: number | undefined): number {
    if (lexeme === undefined) return 0;
    const shared = lexeme + 1 < this.starts.length ? this.starts[lexeme + 1]! - this.starts[lexeme]! : 0;
    return shared + (this.tails.get(lexeme)?.positions.length ?? 0);
  }

  /** How many memories held hold the lexeme. */
  private count(lexeme: number | undefined): number {
    if (!this.removed) return this.postingCount(lexeme);
    let count = 0;
    this.postings(lexeme, (position) => {
      if (!(this.flagsAt[position]! & REMOVED)) count += 1;
    });
    return count;
  }

  /** Whether the memory at `position` is held, of the kind and with the labels asked. */
  private matches(position: number, kind: number, labels: [string, string][] | null): boolean {
    if (this.flagsAt[position]! & REMOVED || (kind !== -1 && this.kindAt[position] !== kind)) return false;
    if (!labels) return true;
    const held = this.labelSets.values[this.labelsAt[position]!]!;
    return labels.every(([name, value]) => held[name] === value);
  }

  /** The same answer as `searchMemories` in memory-repository.ts, from the copy. */
  search(options: LexemeSearch): { hits: LexemeHit[]; total: number; counts: Map<string, number> } {
    const found = this.searchColumns(options);
    return { ...found, hits: hitsOf(found.hits) };
  }

  /**
   * The same answer as `searchMemoryColumns` in memory-repository.ts, from the copy: the memories
   * found as columns (see hit-columns.ts), by id, with no object per memory.
   */
  searchColumns(options: LexemeSearch): { hits: HitColumns; total: number; counts: Map<string, number> } {
    const labels = options.labels && Object.keys(options.labels).length ? Object.entries(options.labels) : null;
    // The kind's number: -1 for any kind, -2 for a kind no memory here has (it matches none).
    const wanted = options.kind === 'all' ? -1 : this.kinds.values.indexOf(options.kind);
    const kind = wanted === -1 && options.kind !== 'all' ? -2 : wanted;
    const bringing = options.lexemes.filter((lexeme) => !options.scoreOnly?.has(lexeme));
    const counted = bringing.length ? options.lexemes.filter((lexeme) => options.scoreOnly?.has(lexeme)) : [];
    const counts = new Map(counted.map((lexeme) => [lexeme, this.count(this.lexemes.get(lexeme))]));
    // Flat typed arrays, not a Set and a Map of arrays: a common word brings in tens of thousands
    // of memories in a large space. `hitOf[position]` is 1 + the memory's place among the hits,
    // or -1 when it was looked at and left out (removed, another kind, other labels).
    // The marks are kept from one search to the next (a search runs to its end before another
    // starts) and put back to 0 where this one set them: a new array each time would be 400 KB
    // at 100k memories, which the garbage collector must then take back.
    if (this.marks.length < this.length) this.marks = new Int32Array(this.length);
    const hitOf = this.marks;
    // So are the lists of positions, which a large space's search fills with thousands.
    const { found, left } = this;
    found.length = 0;
    left.length = 0;
    try {
      return this.searchMarked(options, kind, labels, counts, bringing, hitOf, found, left);
    } finally {
      for (let index = 0; index < found.length; index++) hitOf[found.values[index]!] = 0;
      for (let index = 0; index < left.length; index++) hitOf[left.values[index]!] = 0;
    }
  }

  private searchMarked(
    options: LexemeSearch,
    kind: number,
    labels: [string, string][] | null,
    counts: Map<string, number>,
    bringing: string[],
    hitOf: Int32Array,
    found: Positions,
    left: Positions,
  ): { hits: HitColumns; total: number; counts: Map<string, number> } {
    for (const lexeme of this.bringers(bringing.length ? bringing : options.lexemes, counts)) {
      const factOnly = options.factOnly?.has(lexeme) ?? false;
      this.postings(this.lexemes.get(lexeme), (position, level) => {
        if ((factOnly && level !== 3) || hitOf[position] !== 0) return;
        if (this.matches(position, kind, labels)) {
          hitOf[position] = found.push(position);
        } else {
          hitOf[position] = -1;
          left.push(position);
        }
      });
    }
    if (options.said) this.bringSaid(options.said, kind, labels, hitOf, found);
    if (options.slots?.length) this.bringSlots(options.slots, kind, labels, hitOf, found);
    // By id, as the store answers. Memories are added at the end and new ones have higher ids, so
    // the positions sorted are mostly in id order already: then no more is done. Else (a changed
    // memory held again at the end keeps its id) each hit's id and place in one number,
    // id * places + place (exact in a double: ids are below 2^31, a copy holds far fewer than
    // 2^21 memories), sorted as numbers.
    const places = found.length;
    const byPosition = found.values.subarray(0, places).sort();
    let inOrder = true;
    for (let place = 1; place < places && inOrder; place++) inOrder = this.idAt[byPosition[place]!]! > this.idAt[byPosition[place - 1]!]!;
    const keys = inOrder ? null : new Float64Array(places);
    if (keys) {
      for (let place = 0; place < places; place++) keys[place] = this.idAt[byPosition[place]!]! * places + place;
      keys.sort();
    }
    const width = options.lexemes.length;
    const hits = emptyColumns(places, width, { kinds: this.kinds.values, abouts: this.abouts.values, texts: this.texts.values }, true);
    const positions = hits.position!;
    for (let order = 0; order < places; order++) {
      const position = keys ? byPosition[keys[order]! % places]! : byPosition[order]!;
      // From here on the mark is 1 + the memory's place by id.
      hitOf[position] = order + 1;
      positions[order] = position;
      hits.id[order] = this.idAt[position]!;
      hits.kind[order] = this.kindAt[position]!;
      hits.flags[order] = this.flagsAt[position]! & (DATED | REPORTED);
      hits.created[order] = this.createdAt[position]!;
      hits.said[order] = this.saidAt[position]!;
      hits.about[order] = this.aboutAt[position]!;
      hits.slot[order] = this.slotAt[position]!;
      hits.passage[order] = this.passageTextAt[position]!;
      hits.passageIndex[order] = this.passageIndexAt[position]!;
    }
    const levels = hits.levels;
    for (let lexemeIndex = 0; lexemeIndex < width; lexemeIndex++) {
      this.postings(this.lexemes.get(options.lexemes[lexemeIndex]!), (position, level) => {
        const place = hitOf[position]!;
        if (place > 0) levels[(place - 1) * width + lexemeIndex] = level;
      });
    }
    return { hits, total: places ? this.size : 0, counts };
  }

  /** Brings in the memories in a slot of the attributes asked about (see LexemeSearch.slots), the newest first, as the store does. */
  private bringSlots(
    attributes: readonly string[],
    kind: number,
    labels: [string, string][] | null,
    hitOf: Int32Array,
    found: Positions,
  ): void {
    const endings = attributes.map((attribute) => `|${attribute}`);
    // Whether each slot (by its number among the texts) is one asked about, looked at once per slot.
    const asked = new Map<number, boolean>();
    const isAsked = (slot: number) => {
      let wanted = asked.get(slot);
      if (wanted === undefined) {
        const text = this.texts.values[slot]!;
        wanted = endings.some((ending) => text.endsWith(ending));
        asked.set(slot, wanted);
      }
      return wanted;
    };
    const inSlots: number[] = [];
    for (let position = 0; position < this.length; position++) {
      const slot = this.slotAt[position]!;
      if (slot !== -1 && isAsked(slot) && this.matches(position, kind, labels)) inSlots.push(position);
    }
    this.bringNewest(inSlots, SLOTS_BROUGHT, hitOf, found);
  }

  /** Brings in at most `limit` of `positions`, the newest said first (then the highest id), as the store's `order by … limit` does. */
  private bringNewest(positions: number[], limit: number, hitOf: Int32Array, found: Positions): void {
    positions.sort((left, right) => this.saidAt[right]! - this.saidAt[left]! || this.idAt[right]! - this.idAt[left]!);
    for (const position of positions.slice(0, limit)) if (hitOf[position] === 0) hitOf[position] = found.push(position);
  }

  /** Brings in the memories said in a span (see LexemeSearch.said), the newest first, as the store does. */
  private bringSaid(
    span: { start: number; end: number },
    kind: number,
    labels: [string, string][] | null,
    hitOf: Int32Array,
    found: Positions,
  ): void {
    const inSpan: number[] = [];
    for (let position = 0; position < this.length; position++) {
      const said = this.saidAt[position]!;
      if (said < span.start || said >= span.end || !this.matches(position, kind, labels)) continue;
      inSpan.push(position);
    }
    this.bringNewest(inSpan, SAID_BROUGHT, hitOf, found);
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
    const sizes = lexemes.map((lexeme) => this.postingCount(this.lexemes.get(lexeme)));
    if (sizes.reduce((sum, size) => sum + size, 0) <= MAX_CANDIDATES) return lexemes;
    const rarestFirst = lexemes.map((lexeme, index) => ({ lexeme, size: sizes[index]! })).sort((left, right) => left.size - right.size);
    const bringing: string[] = [];
    let held = 0;
    for (const { lexeme, size } of rarestFirst) {
      if (bringing.length && held + size > MAX_CANDIDATES) {
        counts.set(lexeme, this.count(this.lexemes.get(lexeme)));
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
    const positions = [...new Set(ids.map((id) => this.positionOf(id)).filter((position): position is number => position !== undefined))];
    const sums = new Array<number>(positions.length).fill(0);
    for (const word of lexemes) {
      const lexeme = this.lexemes.get(word);
      if (lexeme === undefined) continue;
      const from = lexeme + 1 < this.starts.length ? this.starts[lexeme]! : 0;
      const to = lexeme + 1 < this.starts.length ? this.starts[lexeme + 1]! : 0;
      const tail = this.tails.get(lexeme);
      positions.forEach((position, index) => {
        const at = bisect(this.postingPositions, from, to, position);
        if (at < to && this.postingPositions[at] === position) sums[index]! += this.postingTenths[at]!;
        else if (tail) {
          const late = bisect(tail.positions, 0, tail.positions.length, position);
          if (late < tail.positions.length && tail.positions[late] === position) sums[index]! += tail.tenths[late]!;
        }
      });
    }
    const ranks = new Map<number, number>();
    positions.forEach((position, index) => {
      const sum = sums[index]! / 10;
      ranks.set(this.idAt[position]!, sum / (sum + 1));
    });
    return ranks;
  }
}

/** Position weights in tenths by letter (A 1, B 0.4, C 0.2, D 0.1), and the level each stands for (A and B 3, C 2, D 1). */
const WEIGHT_TENTHS = [10, 4, 2, 1];
const WEIGHT_LEVEL = [3, 3, 2, 1];

/** The lexemes of the tsvector read last by `readTsvector`, with their levels and weights (in tenths). */
const scratch: { lexemes: string[]; levels: number[]; tenths: number[]; positioned: boolean[] } = {
  lexemes: [],
  levels: [],
  tenths: [],
  positioned: [],
};

/**
 * Reads the lexemes of a tsvector's text form ('word':1A,5,7C; no positions for the broader
 * words, which stand for the memory's own words and add no cover) into `scratch`, with each one's
 * level (the highest of its positions) and summed weights; returns how many there are.
 */
function readTsvector(text: string): number {
  let count = 0;
  let at = 0;
  const end = text.length;
  for (;;) {
    const open = text.indexOf("'", at);
    if (open === -1) break;
    // '' stands for a quote, a backslash for the character after it.
    let lexeme = '';
    let from = open + 1;
    let index = from;
    let closed = false;
    while (index < end) {
      const code = text.charCodeAt(index);
      if (code === 39) {
        if (text.charCodeAt(index + 1) !== 39) {
          closed = true;
          break;
        }
        lexeme += text.slice(from, index + 1);
        index += 2;
        from = index;
      } else if (code === 92 && index + 1 < end) {
        lexeme += text.slice(from, index) + text[index + 1];
        index += 2;
        from = index;
      } else {
        index += 1;
      }
    }
    if (!closed) break;
    lexeme += text.slice(from, index);
    at = index + 1;
    let level = 3;
    let tenths = 0;
    const positioned = text.charCodeAt(at) === 58 && isPositionCode(text.charCodeAt(at + 1));
    if (positioned) {
      level = 0;
      // The weight of the position being read: its letter (A 0 … D 3), D without one.
      let weight = 3;
      for (at += 1; at <= end; at++) {
        const code = at < end ? text.charCodeAt(at) : -1;
        if (code >= 65 && code <= 68) weight = code - 65;
        else if (code >= 48 && code <= 57) weight = 3;
        else {
          level = Math.max(level, WEIGHT_LEVEL[weight]!);
          tenths += WEIGHT_TENTHS[weight]!;
          weight = 3;
          if (code !== 44) break;
        }
      }
    }
    scratch.lexemes[count] = lexeme;
    scratch.levels[count] = level;
    scratch.tenths[count] = tenths;
    scratch.positioned[count] = positioned;
    count += 1;
  }
  return count;
}

/** A digit, a comma or a weight letter A to D. */
function isPositionCode(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 44 || (code >= 65 && code <= 68);
}

/** The lexemes of a tsvector's text form, with their levels and weights (in tenths): what a copy reads of it (tests). */
export function parseTsvector(text: string): { levels: Map<string, number>; weights: Map<string, number> } {
  const levels = new Map<string, number>();
  const weights = new Map<string, number>();
  const count = readTsvector(text);
  for (let index = 0; index < count; index++) {
    levels.set(scratch.lexemes[index]!, scratch.levels[index]!);
    if (scratch.positioned[index]) weights.set(scratch.lexemes[index]!, scratch.tenths[index]!);
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
/** How soon after learning wrote to a space its held copy is brought up to date (writes meanwhile share it). */
const KEEP_UP_MS = 200;
/**
 * A copy not brought up to date for this long is rebuilt whole: the store keeps the memories
 * each version changed for an hour (see migration 16 and jobs/housekeeping.ts).
 */
const FRESH_FOR_MS = 30 * 60_000;

/** The copies of one process, by account and space. */
export class MemoryIndexCache {
  private readonly copies = new Map<string, SpaceIndex>();
  /** The copy being built of each space: every request of the space waits for the same one. */
  private readonly builds = new Map<string, Promise<SpaceIndex | null>>();
  /** When each space's last build ended. */
  private readonly built = new Map<string, number>();
  /** When each copy was last read from the store or brought up to date. */
  private readonly refreshed = new Map<string, number>();
  /** Copies being brought up to date: every request of that space waits for the same one. */
  private readonly refreshing = new Map<string, Promise<SpaceIndex | null>>();
  /** Spaces whose copy is to be brought up to date after learning wrote to them (see keepUp). */
  private readonly keepingUp = new Map<string, ReturnType<typeof setTimeout>>();
  private held = 0;

  constructor(
    private limits: { maxSpace: number; maxHeld: number; rebuildMs: number; buildChunk?: number; mergeAt?: number } = {
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

  /** The version of the copy this process holds of a space, or null when it holds none; reads nothing. */
  heldVersion(scope: Scope): string | null {
    return this.copies.get(keyOf(scope))?.version ?? null;
  }

  /** The spaces this process holds a copy of, least recently used first; reads nothing. */
  heldScopes(): Scope[] {
    return [...this.copies.keys()].map((key) => {
      const split = key.indexOf('\u0000');
      return { accountId: Number(key.slice(0, split)), space: key.slice(split + 1) };
    });
  }

  /**
   * Learning wrote to a space: a copy this process holds of it is brought up to date in the
   * background, once for all the writes of the next KEEP_UP_MS, so that the next search finds it
   * current instead of waiting for the changes (or, once they pass MAX_CHANGES, for a build of
   * the whole space: about 2 s at 100k memories). A space with no copy is left alone: copies are
   * made by searches, never by writes.
   */
  keepUp(db: Db, scope: Scope): void {
    const key = keyOf(scope);
    if (!this.copies.has(key) || this.keepingUp.has(key)) return;
    const catchUp = () => {
      const copy = this.copies.get(key);
      // A build under way or a copy too old for the changes kept is left to the next search.
      if (!copy || this.builds.has(key) || Date.now() - (this.refreshed.get(key) ?? 0) >= FRESH_FOR_MS) return;
      void this.refreshShared(db, scope, key, copy);
    };
    const timer = setTimeout(() => {
      this.keepingUp.delete(key);
      // A refresh under way may have read the space before this write: one more once it is done.
      const running = this.refreshing.get(key);
      if (running) void running.then(catchUp);
      else catchUp();
    }, KEEP_UP_MS);
    timer.unref?.();
    this.keepingUp.set(key, timer);
  }

  /**
   * Builds copies of the given spaces, in the order given (the most wanted first), one at a time,
   * skipping a space already held or being built and any whose `memories` would take the copies
   * past what they may hold in all: warming never drops a copy to make room. Returns how many it
   * built. Each build reads in chunks, so requests on the embedded store's one connection go
   * between them.
   */
  async warm(db: Db, spaces: readonly { accountId: number; space: string; memories: number }[]): Promise<number> {
    let built = 0;
    for (const { accountId, space, memories } of spaces) {
      const scope = { accountId, space };
      const key = keyOf(scope);
      if (this.copies.has(key) || this.builds.has(key)) continue;
      if (memories > this.limits.maxSpace || this.held + memories > this.limits.maxHeld) continue;
      if (await this.buildShared(db, scope, key)) built += 1;
    }
    return built;
  }

  /** Builds the space's copy whole, sharing one build between every caller of the same space. */
  private buildShared(db: Db, scope: Scope, key: string): Promise<SpaceIndex | null> {
    let build = this.builds.get(key);
    if (!build) {
      build = this.build(db, scope, key)
        .catch(() => null)
        .finally(() => {
          this.builds.delete(key);
          this.built.set(key, Date.now());
        });
      this.builds.set(key, build);
    }
    return build;
  }

  /** Brings `copy` up to date, sharing one refresh between every caller of the same space. */
  private refreshShared(db: Db, scope: Scope, key: string, copy: SpaceIndex): Promise<SpaceIndex | null> {
    let refresh = this.refreshing.get(key);
    if (!refresh) {
      refresh = this.refresh(db, scope, key, copy)
        .catch(() => null)
        .finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, refresh);
    }
    return refresh;
  }

  /**
   * The copy of the space at `version` (or newer), or null (recall then reads the store). A copy
   * a few changes behind is brought up to date first, by what changed (the request waits a few
   * milliseconds). A missing copy, or one too far behind, is built whole, and every request of
   * the space waits for that one build rather than searching the store meanwhile: at 100k
   * memories 32 callers each reading every match's tsvector out of the store held gigabytes at
   * once, where the build reads each memory once, in chunks. A copy that still falls short of
   * `version` after its build (the space was written to meanwhile) is rebuilt at most once every
   * `rebuildMs`, and recall reads the store until then.
   */
  async current(db: Db, scope: Scope, version: string | null): Promise<SpaceIndex | null> {
    if (version === null || this.limits.maxHeld === 0) return null;
    const key = keyOf(scope);
    let copy = this.copies.get(key);
    if (copy && BigInt(copy.version) < BigInt(version) && Date.now() - (this.refreshed.get(key) ?? 0) < FRESH_FOR_MS) {
      copy = (await this.refreshShared(db, scope, key, copy)) ?? undefined;
      if (copy && this.copies.get(key) !== copy) copy = undefined;
    }
    if (copy && BigInt(copy.version) >= BigInt(version)) {
      // Most recently used last.
      this.copies.delete(key);
      this.copies.set(key, copy);
      return copy;
    }
    if (!this.builds.has(key)) {
      const ended = this.built.get(key);
      if (ended !== undefined && Date.now() - ended < this.limits.rebuildMs) return null;
      if (this.built.size > 10_000) {
        // Forget when spaces long since rebuilt were last rebuilt: only recent times matter.
        for (const [other, at] of this.built) if (Date.now() - at >= this.limits.rebuildMs) this.built.delete(other);
      }
      // The copy being replaced cannot answer for this version: it goes before its successor is
      // read, so that the process never holds a large space twice.
      this.drop(key);
    }
    const built = await this.buildShared(db, scope, key);
    return built && this.copies.get(key) === built && BigInt(built.version) >= BigInt(version) ? built : null;
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
      if (!copy.apply(changes.version, changes.ids, rows)) return null;
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
    const copy = new SpaceIndex(found.version, found.count, this.limits.mergeAt);
    const chunk = this.limits.buildChunk ?? BUILD_CHUNK;
    for (let after = 0; ; ) {
      const { rows } = await sql<HitRow>`
        select ${hitColumns} from memories m
        where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current' and m.id > ${after}
        order by m.id limit ${chunk}`.execute(db);
      // Each chunk's rows are read straight into the copy and let go before the next is read.
      copy.appendRows(rows);
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
    for (const timer of this.keepingUp.values()) clearTimeout(timer);
    this.keepingUp.clear();
    this.copies.clear();
    this.built.clear();
    this.refreshed.clear();
    this.held = 0;
  }
}

/** The key of a space's copy: its account and name. */
const keyOf = (scope: Scope) => `${scope.accountId}\u0000${scope.space}`;

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

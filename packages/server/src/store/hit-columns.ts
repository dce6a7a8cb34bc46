import type { MemoryKind } from '@engram/protocol';

/** A memory sharing words with a query: how well each lexeme matched, before it is scored. */
export interface LexemeHit {
  id: number;
  kind: MemoryKind;
  about: string[];
  /**
   * The source and message it came from ("src_…:3"): memories of one message repeat each
   * other's context. Null for a memory alone outside a conversation, which shares it with none.
   */
  passage: string | null;
  /** Subject and attribute of a fact that can change ("omar|home"), else null. */
  slot: string | null;
  /** Whether the memory's own words carry a date (a year). */
  dated: boolean;
  /** A speaker's remark about something other than themselves (see LearnedFact.reported). */
  reported: boolean;
  created_at: number;
  /** The day it was said or written (its `date`), as epoch milliseconds at 00:00 UTC. */
  said: number;
  /**
   * Per lexeme, where it was found: 3 in the memory's text or names, 2 only in the rest of
   * its message, 1 only in the message it answers, 0 not at all.
   */
  levels: number[];
}

/** Flags of a memory a search found. */
export const HIT_DATED = 1;
export const HIT_REPORTED = 2;

/**
 * The memories a search found, as columns by place, with how each of the search's lexemes
 * matched in each (`levels`, `width` values a memory): what `LexemeHit` holds for one memory,
 * without an object, an array and two boxed numbers per memory. A search in a large space finds
 * thousands of memories and recall returns a few: the columns are a handful of arrays whatever
 * their number. Values many memories share (kinds, names, slots, sources) are numbers into
 * tables, which may be shared with what made the columns and are only ever added to.
 */
export interface HitColumns {
  readonly length: number;
  /** Lexemes per memory in `levels`: the lexemes searched for, in their order. */
  readonly width: number;
  readonly id: Int32Array;
  /** Its number in `kinds`. */
  readonly kind: Uint8Array;
  /** HIT_DATED, HIT_REPORTED. */
  readonly flags: Uint8Array;
  /** `LexemeHit.created_at`. */
  readonly created: Float64Array;
  readonly said: Float64Array;
  /** Its number in `abouts`. */
  readonly about: Int32Array;
  /** Its number in `texts`, or -1 for none. */
  readonly slot: Int32Array;
  /**
   * Its passage's number in `texts` (with `passageIndex` the message's index, or -1 when the
   * text is the whole passage), or -1 for none: one passage is always the same pair.
   */
  readonly passage: Int32Array;
  readonly passageIndex: Int32Array;
  /** Memory `place`'s level for lexeme `index` is at `place * width + index` (see `LexemeHit.levels`). */
  readonly levels: Uint8Array;
  /**
   * Where the index copy that found the memories holds each (store/memory-index.ts), so that what
   * else the copy keeps of them (their vectors) is read without looking them up by id; absent when
   * the store's own search found them.
   */
  readonly position?: Int32Array;
  readonly kinds: readonly MemoryKind[];
  readonly abouts: readonly string[][];
  readonly texts: readonly string[];
}

/** Columns for `length` memories, all 0, in one buffer (one allocation outside the heap, not twelve); `positions`: with a `position` column. */
export function emptyColumns(
  length: number,
  width: number,
  tables: { kinds: readonly MemoryKind[]; abouts: readonly string[][]; texts: readonly string[] },
  positions = false,
): HitColumns {
  const buffer = new ArrayBuffer(length * (8 * 2 + 4 * (positions ? 6 : 5) + 2) + length * width);
  let at = 0;
  const doubles = () => {
    const array = new Float64Array(buffer, at, length);
    at += 8 * length;
    return array;
  };
  const ints = () => {
    const array = new Int32Array(buffer, at, length);
    at += 4 * length;
    return array;
  };
  const bytes = (count: number) => {
    const array = new Uint8Array(buffer, at, count);
    at += count;
    return array;
  };
  return {
    length,
    width,
    created: doubles(),
    said: doubles(),
    id: ints(),
    about: ints(),
    slot: ints(),
    passage: ints(),
    passageIndex: ints(),
    position: positions ? ints() : undefined,
    kind: bytes(length),
    flags: bytes(length),
    levels: bytes(length * width),
    ...tables,
  };
}

/**
 * How many of the memories hold each lexeme (by its index; `size` counts, those past the columns'
 * width 0). A function of its own, as is `createdSpan`: a loop over thousands of memories in a
 * long function had V8 run the rest of that function from the loop's optimised code, which on
 * Node 20 was thrown away and entered again on every call whenever an array of the function's
 * words came in a shape not seen before (recall/search.ts, scoreHits).
 */
export function lexemeCounts(hits: HitColumns, size: number): number[] {
  const { length, width, levels } = hits;
  const counts = new Array<number>(size).fill(0);
  for (let place = 0; place < length; place++) {
    const from = place * width;
    for (let index = 0; index < width; index++) if (levels[from + index]! > 0) counts[index] = counts[index]! + 1;
  }
  return counts;
}

/** The newest and oldest creation time of the memories (-Infinity and Infinity for none). */
export function createdSpan(hits: HitColumns): { newest: number; oldest: number } {
  let newest = -Infinity;
  let oldest = Infinity;
  for (let place = 0; place < hits.length; place++) {
    newest = Math.max(newest, hits.created[place]!);
    oldest = Math.min(oldest, hits.created[place]!);
  }
  return { newest, oldest };
}

/**
 * A passage's source and message index ("src_…:3" → "src_…" and 3), or null for a passage that is
 * no message of a source (a note's passage is its source alone).
 */
export function splitPassage(passage: string): { source: string; index: number } | null {
  const colon = passage.lastIndexOf(':');
  const index = passage.slice(colon + 1);
  return colon > 0 && /^(?:0|[1-9]\d{0,8})$/.test(index) ? { source: passage.slice(0, colon), index: Number(index) } : null;
}

/** The passage of the memory at `place` ("src_…:3"), or null for a memory alone. */
export function passageAt(hits: HitColumns, place: number): string | null {
  const text = hits.passage[place]!;
  if (text === -1) return null;
  const index = hits.passageIndex[place]!;
  return index === -1 ? hits.texts[text]! : `${hits.texts[text]}:${index}`;
}

/** The memory at `place` as an object, for the few memories that need one (and tests). */
export function hitAt(hits: HitColumns, place: number): LexemeHit {
  const slot = hits.slot[place]!;
  const flags = hits.flags[place]!;
  const levels = new Array<number>(hits.width);
  const from = place * hits.width;
  for (let index = 0; index < hits.width; index++) levels[index] = hits.levels[from + index]!;
  return {
    id: hits.id[place]!,
    kind: hits.kinds[hits.kind[place]!]!,
    about: hits.abouts[hits.about[place]!]!,
    created_at: hits.created[place]!,
    said: hits.said[place]!,
    passage: passageAt(hits, place),
    slot: slot === -1 ? null : hits.texts[slot]!,
    dated: (flags & HIT_DATED) !== 0,
    reported: (flags & HIT_REPORTED) !== 0,
    levels,
  };
}

/** Every memory as an object, in the columns' order. */
export function hitsOf(hits: HitColumns): LexemeHit[] {
  const list = new Array<LexemeHit>(hits.length);
  for (let place = 0; place < hits.length; place++) list[place] = hitAt(hits, place);
  return list;
}

/**
 * Hits as columns, in their order; `width` lexemes a memory (by default the most any hit has;
 * a hit with fewer levels has 0 for the rest, as a missing level reads).
 */
export function columnsOf(list: readonly LexemeHit[], width?: number): HitColumns {
  const kinds: MemoryKind[] = [];
  const abouts: string[][] = [];
  const texts: string[] = [];
  const textNumbers = new Map<string, number>();
  const textOf = (text: string) => {
    let number = textNumbers.get(text);
    if (number === undefined) {
      number = texts.push(text) - 1;
      textNumbers.set(text, number);
    }
    return number;
  };
  let wide = width ?? 0;
  if (width === undefined) for (const hit of list) wide = Math.max(wide, hit.levels.length);
  const hits = emptyColumns(list.length, wide, { kinds, abouts, texts });
  list.forEach((hit, place) => {
    hits.id[place] = hit.id;
    let kind = kinds.indexOf(hit.kind);
    if (kind === -1) kind = kinds.push(hit.kind) - 1;
    hits.kind[place] = kind;
    hits.flags[place] = (hit.dated ? HIT_DATED : 0) | (hit.reported ? HIT_REPORTED : 0);
    hits.created[place] = hit.created_at;
    hits.said[place] = hit.said;
    hits.about[place] = abouts.push(hit.about) - 1;
    hits.slot[place] = hit.slot === null ? -1 : textOf(hit.slot);
    hits.passage[place] = hit.passage === null ? -1 : textOf(hit.passage);
    hits.passageIndex[place] = -1;
    const from = place * wide;
    for (let index = 0; index < Math.min(wide, hit.levels.length); index++) hits.levels[from + index] = hit.levels[index]!;
  });
  return hits;
}

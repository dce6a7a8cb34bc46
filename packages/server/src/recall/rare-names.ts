import type { HitColumns } from '../store/hit-columns.js';
import { MONTH_WORDS, WEEKDAY_WORDS } from '../text/calendar.js';

/** A name said by at most this share of a space's memories brings memories in, as a rare word does. */
export const RARE_NAME_SHARE = 0.02;

/**
 * The lexemes of a question's names that few memories say (at most RARE_NAME_SHARE of the
 * space's `total`, by the `counts` a search gave for the names it only scored). Names bring in no
 * memories of their own, since in a space about a few people the names of the people talking are
 * in nearly every memory's message; but a friend, a pet or a place said now and then ("Jean",
 * "Aragorn") tells which memories a question is about as a rare word does. A memory naming it and
 * none of the question's other words (a reply telling what Jean went through, asked about with
 * "before meeting") is otherwise never found. Month and weekday names are capitalised but name a
 * time, which the question's time cue reads.
 */
export function rareNames(
  names: readonly string[],
  terms: readonly string[],
  lexemeLists: readonly string[][],
  counts: ReadonlyMap<string, number>,
  total: number,
): string[] {
  const rare: string[] = [];
  for (const name of names) {
    if (MONTH_WORDS.includes(name) || WEEKDAY_WORDS.includes(name)) continue;
    for (const lexeme of lexemeLists[terms.indexOf(name)] ?? []) {
      const count = counts.get(lexeme);
      if (count !== undefined && count <= RARE_NAME_SHARE * total && !rare.includes(lexeme)) rare.push(lexeme);
    }
  }
  return rare;
}

/**
 * Whether a search's hits already hold every memory that says a lexeme (`count` of them): then
 * searching again with it bringing memories in would find nothing more. `index` is the lexeme's
 * place among the search's lexemes.
 */
export function holdsAll(hits: HitColumns, index: number, count: number): boolean {
  if (index < 0 || index >= hits.width) return false;
  let held = 0;
  for (let place = 0; place < hits.length; place++) if (hits.levels[place * hits.width + index]! > 0) held += 1;
  return held >= count;
}

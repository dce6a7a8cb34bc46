import { stemmer } from 'stemmer';
import { asksWhen } from './query.js';
import type { Recalled } from './search.js';

/** What the offline ask answers. */
export interface OfflineAnswer {
  answer: string | null;
  message: string;
  clash: boolean;
}

/** Memories scoring at least this share of the best one support the answer. */
const SUPPORT_SHARE = 0.9;
/** At most this many memories make the written answer. */
const MAX_SENTENCES = 2;

/** An absolute date as the learner writes it: "7 May 2023", "May 2023", "2023", with what qualifies it. */
const DATE_PHRASE =
  /\b(?:(?:the (?:week|weekend|month|day|year)s? (?:before|after|of) |(?:a few|two|three|several) (?:days|weeks|months|years) (?:before|after) |(?:early|mid|late) |the (?:night|morning|evening|afternoon) of |(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),? )?(?:\d{1,2} )?(?:january|february|march|april|may|june|july|august|september|october|november|december) \d{4}|(?:in |since |before |after )?(?:19|20)\d{2})\b/i;

const NEGATION = /\b(?:not|no|never|none|nothing|nobody|n't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|won't|can't|cannot|stopped|quit)\b/gi;

/**
 * The offline written answer, in the service's words: for "when" questions the date the best
 * dated memory gives; otherwise the best memory, joined by one from another message scoring
 * almost as well. Null when nothing stored bears on the question (the same judgement as
 * context). `clash` is true when the memories behind the answer disagree: one says what the
 * other denies, or two current memories give different values to the same slot.
 */
export function answerOffline(recalled: Recalled[], empty: boolean, question = ''): OfflineAnswer {
  if (empty || !recalled.length) {
    return { answer: null, message: 'Nothing stored bears on this question.', clash: false };
  }
  const best = recalled[0]!.score;
  const support = recalled.filter((item) => item.score >= best * SUPPORT_SHARE).slice(0, 5);
  const clash = findClash(support);

  let answer: string | null = null;
  let used: Recalled[] = [];
  if (question ? asksWhen(question) : recalled[0]!.when === true) {
    const dated = support.find((item) => DATE_PHRASE.test(item.row.text)) ?? recalled.slice(0, 3).find((item) => DATE_PHRASE.test(item.row.text));
    if (dated) {
      const phrase = DATE_PHRASE.exec(dated.row.text)![0];
      answer = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}: ${sentence(dated.row.text)}`;
      used = [dated];
    }
  }
  if (answer === null) {
    used = [recalled[0]!];
    for (const item of support.slice(1)) {
      if (used.length >= MAX_SENTENCES) break;
      const passage = (row: Recalled['row']) => `${row.source_id}:${row.message_index}`;
      if (used.some((chosen) => passage(chosen.row) === passage(item.row))) continue;
      used.push(item);
    }
    answer = used.map((item) => sentence(item.row.text)).join(' ');
  }
  const count = used.length;
  const note = clash ? ' The memories disagree; both are given.' : '';
  return {
    answer: clash ? support.slice(0, 2).map((item) => sentence(item.row.text)).join(' ') : answer,
    message: `Answered from ${count} ${count === 1 ? 'memory' : 'memories'} (best match ${best.toFixed(2)}).${note}`,
    clash,
  };
}

function sentence(text: string): string {
  return text.replace(/\s*[.!?]*$/u, '.');
}

/** Whether two memories behind an answer disagree. */
export function findClash(support: Recalled[]): boolean {
  for (let left = 0; left < support.length; left++) {
    for (let right = left + 1; right < support.length; right++) {
      const a = support[left]!.row;
      const b = support[right]!.row;
      if (a.slot && a.slot === b.slot && a.text !== b.text) return true;
      if (negates(a.text, b.text)) return true;
    }
  }
  return false;
}

/** "Omar likes coffee" against "Omar does not like coffee": the same words once negations are set aside, one negated. */
function negates(left: string, right: string): boolean {
  const negated = (text: string) => (text.match(NEGATION)?.length ?? 0) % 2 === 1;
  if (negated(left) === negated(right)) return false;
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .replace(NEGATION, ' ')
        .match(/[\p{L}\p{N}]+/gu)
        ?.filter((word) => !['does', 'do', 'did', 'is', 'are', 'was', 'were', 'any', 'more', 'longer', 'anymore'].includes(word))
        .map((word) => stemmer(word)) ?? [],
    );
  const a = words(left);
  const b = words(right);
  if (a.size < 2 || a.size !== b.size) return false;
  for (const word of a) if (!b.has(word)) return false;
  return true;
}

import type { Recalled } from './search.js';

/** What the offline ask answers. */
export interface OfflineAnswer {
  answer: string | null;
  message: string;
  clash: boolean;
}

/** Answers near the best one count as support for the answer. */
const SUPPORT_SHARE = 0.85;

/**
 * The offline written answer: the best memory's own words, joined by those scoring almost
 * as well, or null when nothing stored bears on the question (the same judgement as context).
 */
export function answerOffline(recalled: Recalled[], empty: boolean): OfflineAnswer {
  if (empty || !recalled.length) {
    return { answer: null, message: 'Nothing stored bears on this question.', clash: false };
  }
  const best = recalled[0]!.score;
  const support = recalled.filter((item) => item.score >= best * SUPPORT_SHARE).slice(0, 3);
  const answer = support.map((item) => item.row.text.replace(/\s*[.!?]*$/u, '.')).join(' ');
  const count = support.length;
  return {
    answer,
    message: `Answered from ${count} ${count === 1 ? 'memory' : 'memories'} (best match ${best.toFixed(2)}).`,
    clash: false,
  };
}

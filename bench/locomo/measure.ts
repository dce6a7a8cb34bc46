import { stemmer } from 'stemmer';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → that time (read as UTC). */
export function parseSessionDate(text: string): Date {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!match) throw new Error(`unreadable session date: ${text}`);
  let hour = Number(match[1]) % 12;
  // Every group of the pattern is required, so each is there.
  if (match[3]!.toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(match[5]!.toLowerCase());
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2])));
}

/** Evidence strings as turn ids "D<session>:<turn>" (split on ';' and spaces, stray ':' and leading zeros allowed). */
export function normaliseEvidence(evidence: string[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of evidence) {
    for (const part of entry.split(/[;\s]+/)) {
      const match = /^D:?0*(\d+):+0*(\d+)/i.exec(part.trim());
      if (match) ids.add(`D${match[1]}:${match[2]}`);
    }
  }
  return ids;
}

const ARTICLES = new Set(['a', 'an', 'the', 'and']);
/** LoCoMo's answer normalisation: lower case, no punctuation or articles, Porter stems. */
export function answerTokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/,/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((word) => !ARTICLES.has(word))
    .map((word) => stemmer(word));
}

/** Token F1 between a written answer and the gold answer. */
export function tokenF1(prediction: string, gold: string): number {
  const predicted = answerTokens(prediction);
  const expected = answerTokens(gold);
  if (!predicted.length || !expected.length) return 0;
  const left = new Map<string, number>();
  for (const token of expected) left.set(token, (left.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predicted) {
    const count = left.get(token) ?? 0;
    if (count > 0) {
      common += 1;
      left.set(token, count - 1);
    }
  }
  if (!common) return 0;
  const precision = common / predicted.length;
  const recall = common / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Whether every word of the answer (normalised) is in the text. */
export function answerInText(answer: string, text: string): boolean {
  const expected = answerTokens(answer);
  if (!expected.length) return false;
  const words = new Set(answerTokens(text));
  return expected.every((token) => words.has(token));
}

/** A turn of a LoCoMo session, as the data file holds it. */
export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** A conversation's sessions in order, each with the time it was held (ISO) and its turns. */
export function sessionsOf(conversation: Record<string, unknown>): { number: number; at: string; turns: LocomoTurn[] }[] {
  const sessions: { number: number; at: string; turns: LocomoTurn[] }[] = [];
  for (const key of Object.keys(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    if (!match) continue;
    const turns = conversation[key] as LocomoTurn[];
    const date = conversation[`${key}_date_time`] as string;
    if (!Array.isArray(turns) || !turns.length || !date) continue;
    sessions.push({ number: Number(match[1]), at: parseSessionDate(date).toISOString(), turns });
  }
  return sessions.sort((left, right) => left.number - right.number);
}

/** A turn's text as Engram is given it: a shared photo's caption after the words. */
export const turnText = (turn: LocomoTurn) => (turn.blip_caption ? `${turn.text} [shares: ${turn.blip_caption}]` : turn.text);

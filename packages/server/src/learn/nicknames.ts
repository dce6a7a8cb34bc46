import { splitSentences } from '../text/segment.js';
import { interjection } from './chit-chat.js';
import { couldBeName } from './names.js';

/**
 * Nicknames. Between two named people talking, a shortening of one's first name that the other
 * calls them by ("Mel" for Melissa, "Jo" for Josephine), said where a name addresses someone: after
 * a greeting, thanks or another interjection opening a sentence ("Hey Mel, …", "Thanks, Jo!":
 * chit-chat.ts's list), alone before a comma opening one ("Mel, …"), or after a comma ending
 * one ("…, Mel!"). It is learned as a fact of its
 * own ("Hana calls Melissa by the nickname Mel."), once per conversation, so that a question
 * about it ("What does Hana call Melissa?") finds the sentence that used it; the name in the
 * text is otherwise set aside as a vocative (chit-chat.ts `findContent`). A word the lexicon knows
 * as anything but a name is none ("Me, too!" to Melissa, "No, …" to Nora).
 */

/** A name addressing someone at a sentence's opening, after an interjection or alone before a pause. */
const OPENING = new RegExp(String.raw`^\W*(?:${interjection}[,!]?\s+)?(\p{Lu}\p{Ll}+)\s*(?:[,!?…]|\.(?:\s|$)|$)`, 'iu');
/** A name addressing someone after a comma ending a sentence. */
const CLOSING = /,\s*(\p{Lu}\p{Ll}+)\s*[.!?…]*\W*$/u;

/** A nickname in `sentence` (one sentence) for `name`'s first name, where it addresses them; null for none. */
export function nicknameIn(sentence: string, name: string): string | null {
  const first = name.split(/\s+/)[0] ?? '';
  if (first.length < 3) return null;
  const fits = (word: string | undefined) =>
    word !== undefined &&
    word.length >= 2 &&
    word.length < first.length &&
    word[0] === first[0] &&
    first.toLowerCase().startsWith(word.toLowerCase()) &&
    couldBeName(word.toLowerCase());
  const opening = OPENING.exec(sentence);
  if (opening !== null && fits(opening[1])) return opening[1]!;
  const closing = CLOSING.exec(sentence);
  if (closing !== null && fits(closing[1])) return closing[1]!;
  return null;
}

/** Where a message first calls `name` by a nickname: the nickname and its sentence's offsets; null for none. */
export function nicknameSaid(text: string, name: string): { nickname: string; start: number; end: number; sentence: string } | null {
  for (const segment of splitSentences(text)) {
    const nickname = nicknameIn(segment.text, name);
    if (nickname !== null) return { nickname, start: segment.start, end: segment.end, sentence: segment.text };
  }
  return null;
}

/** The fact a nickname makes: "<speaker> calls <name> by the nickname <nickname>." */
export function nicknameFact(speaker: string, name: string, nickname: string): string {
  return `${speaker} calls ${name} by the nickname ${nickname}.`;
}

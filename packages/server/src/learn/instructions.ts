import type { Token } from '../text/tokens.js';

/**
 * Standing instructions: what a user tells an assistant about how to answer from now on
 * ("Always answer in Spanish", "Don't use emojis in your replies", "Use metric units when you
 * talk to me"). They are the preferences a chat app most needs to remember, yet they are
 * worded as commands, which the learner otherwise sets aside as talk. A one-off request ("Tell
 * me a joke", "Summarise this for me", "Remind me to call the bank") is not one: an
 * instruction stands when it says so (always, never, from now on, whenever…, stop doing…) or
 * when it is about the replies themselves (your answers, talk to me like…, answer in…).
 */

/**
 * What may come before the command: "please", a time it holds for ("From now on,", "When I
 * ask about code,"), and a habit or a negation ("always", "never", "don't", "stop").
 * Group 1 is the courtesy before it all ("please", "and also"), group 2 who acts in a leading
 * "when" clause ("When I ask about code, …" holds each time the user does), group 3 the habit
 * or negation word.
 */
const lead =
  /^((?:(?:please|pls|kindly|and|also|oh,? and|so|ok(?:ay)?|one more thing),?\s+)*)(?:(?:from now on|going forward|in (?:the )?future|by default|next time|(?:when(?:ever)?|if|each time|every time) (i|we|you) [^,]{1,80}),?\s+)?(?:(?:please|kindly),?\s+)?(always|never|(?:do not|don['’]?t)(?:\s+ever)?|stop|no longer)?\s*/i;

/** Words that make a command last: a habit or a time from which it holds, wherever they stand. */
const lasting =
  /\b(?:always|never|from now on|going forward|in (?:the )?future|by default|any ?more|every time|each time|whenever|no longer)\b/i;

/** Words about the replies themselves: their form, language, tone or length, and how to address the user. */
const aboutReplies =
  /\b(?:your|the)\s+(?:answers?|repl(?:y|ies)|responses?|messages?|tone|suggestions?|recommendations?|explanations?|summar(?:y|ies)|examples?|code samples?|emails?|drafts?)\b|\b(?:answer|reply|respond|write|talk|speak|explain(?: things)?)\s+(?:to me\s+)?(?:in|like|with|more|less)\b|\b(?:talk|speak|write|reply|respond)\s+to me\b|\baddress me\b/i;

/**
 * Where the standing instruction in a command to an assistant starts (after "please" and the
 * like), or null when the command is not one: whether it sets how the assistant should answer
 * from now on. `content` is the sentence without greetings or a name called out; `tokens` are
 * its tagged words, placed in the text that `content` starts at `contentStart` of.
 */
export function standingInstruction(content: string, tokens: readonly Token[], contentStart: number): number | null {
  const text = content.trimEnd();
  const opening = lead.exec(text);
  const leadLength = opening?.[0].length ?? 0;
  const courtesy = opening?.[1]?.length ?? 0;
  const byUser = /^(?:i|we)$/i.test(opening?.[2] ?? '');
  const habit = opening?.[3]?.toLowerCase() ?? '';
  const rest = text.slice(leadLength);
  // What follows the lead must be a bare verb: the command itself ("stop" takes a gerund).
  const first = tokens.find((token) => token.text !== '' && token.start >= contentStart + leadLength);
  if (first === undefined || rest === '') return null;
  const verb = habit === 'stop' ? first.tags.has('Gerund') : isBareVerb(first);
  // "Never mind", "Don't worry": talk, not instructions.
  if (!verb || /^(?:mind|worry)\b/i.test(rest)) return null;
  // "Always…", "Never…" and "Stop …ing" last by their own words; "Don't…" when it says "ever" or "again",
  // and a plain command when it says so.
  const negation = /^(?:do not|don['’]?t)/i.test(habit);
  const stands =
    ['always', 'never', 'stop', 'no longer'].includes(habit) ||
    byUser ||
    (negation && /\b(?:ever|again)\b/i.test(text)) ||
    lasting.test(text) ||
    aboutReplies.test(text);
  return stands && courtesy < text.length ? courtesy : null;
}

function isBareVerb(token: Token): boolean {
  const tags = token.tags;
  return (
    tags.has('Verb') &&
    (tags.has('Infinitive') || tags.has('Imperative')) &&
    !tags.has('PastTense') &&
    !tags.has('Gerund') &&
    !tags.has('Auxiliary') &&
    !tags.has('Modal')
  );
}

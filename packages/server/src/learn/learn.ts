import { lexiconTags } from '../text/lexicon.js';
import type { Segment } from '../text/segment.js';
import { splitSentences } from '../text/segment.js';
import type { Token } from '../text/tokens.js';
import { tokenize, tokensWithin } from '../text/tokens.js';
import { adviceFact, isAdvice } from './advice.js';
import type { Content } from './chit-chat.js';
import {
  asksToKeep,
  findContent,
  isChitChat,
  isInterjection,
  isQuestion,
  labelEnd,
  normaliseForMatching,
  questionCarriesFact,
  statementLeadEnd,
  tagQuestionStart,
} from './chit-chat.js';
import { classifyFact } from './classify.js';
import { type Gender, resolveLeadingPronouns, resolveReplyPronoun } from './coreference.js';
import { resolveDates, startOfDay, type Tense } from './dates.js';
import { applyEdits } from './edit.js';
import { factFingerprint } from './fingerprint.js';
import { standingInstruction } from './instructions.js';
import { isLasting } from './lasting.js';
import { nameTypes } from './name-types.js';
import { addName, findNames } from './names.js';
import { nicknameFact, nicknameSaid } from './nicknames.js';
import { rewriteQuestion } from './questions.js';
import { refersBack } from './refers-back.js';
import { unshout } from './shouting.js';
import { slotOf } from './slots.js';
import type { Persons } from './speaker.js';
import { fillDroppedSubject, fillNoteSubject, nameAt, resolvePersons } from './speaker.js';
import { detectTense } from './tense.js';
import type { Edit, LearnedFact, LearnOptions, ReadMessage } from './types.js';
import { tidyRepeatedPossessives } from './wording.js';

/** How much of a message (and of the one before it) is kept with each fact for search. */
const CONTEXT_CHARS = 1_000;
/** How much of the message two back is kept with a reply's facts. */
const EARLIER_CHARS = 300;
/** The label for "I" when the owner has no name. It is a role, not a name, so it is never in `about`. */
const defaultOwner = 'The user';
/** How an app reports an image the user shared: " [shares: a photo of a dog on a beach]". */
const sharedImage = /\[shares?:\s*([^\]]*?)\s*\]/giu;
/** Words by which a speaker says a thing shown is theirs ("this quilt I made", "these tomatoes from my allotment"). */
const ownWords = /\b(?:i|i'(?:ve|d)|my|we|we'(?:ve|d)|our|mine|ours)\b/iu;

/** How to read one passage (a note, or one message). */
interface Passage {
  text: string;
  messageIndex: number | null;
  /** Relative dates resolve against this time. */
  reference: Date;
  persons: Persons;
  /** The speaker as it may appear in `about` (null for a role such as "The user"). */
  speakerName: string | null;
  otherName: string | null;
  /** Write "<speaker> said …" before a sentence that does not name the speaker (conversations). */
  attribute: boolean;
  /** Names of the people talking, so that a name used to address someone is set aside. */
  addressees: readonly string[];
  /** The message before this one in a conversation (led by the opening of the one before that), kept with each fact for search. */
  before?: string;
  /** The owner's own message to an assistant (a user message without a name), where a standing instruction is a preference. */
  toAssistant?: boolean;
  /** A note an app wrote about its owner, whose clipped sentences are the owner's (LearnOptions.note). */
  note?: boolean;
}

/** Facts from a note/page text (the writer is the owner). */
export function learnFromText(text: string, options: LearnOptions): LearnedFact[] {
  const owner = ownerLabel(options);
  const facts: LearnedFact[] = [];
  learnPassage(
    {
      text,
      messageIndex: null,
      reference: options.writtenAt,
      persons: { self: owner, other: null },
      speakerName: owner === defaultOwner ? null : owner,
      otherName: null,
      attribute: false,
      addressees: [],
      note: options.note === true,
    },
    facts,
  );
  return deduplicate(facts);
}

/**
 * Facts from a conversation. A named speaker's words become facts about that speaker; a user
 * message without a name speaks for the owner; an assistant message without a name is the
 * model's own talk and is skipped; a tool message is read as a note (no one is "I").
 */
export function learnFromMessages(messages: ReadMessage[], options: LearnOptions): LearnedFact[] {
  const owner = ownerLabel(options);
  const named: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool' && message.name !== null && !named.includes(message.name)) named.push(message.name);
  }
  const facts: LearnedFact[] = [];
  const said = messages.filter((message) => message.text.trim() !== '');
  for (const [position, message] of said.entries()) {
    // What a message answers: the one before it, led by the opening of the one before that,
    // which often names the topic a short exchange is about ("We went camping!" / "How was
    // it?" / "We cooked on the fire…").
    const earlier = said[position - 2]?.text.slice(0, EARLIER_CHARS);
    const previous = said[position - 1] && [earlier, said[position - 1]!.text].filter((text) => text !== undefined).join('\n');
    const reference = message.at ?? options.writtenAt;
    if (message.role === 'tool') {
      learnPassage(
        {
          text: message.text,
          messageIndex: message.index,
          reference,
          persons: { self: null, other: null },
          speakerName: null,
          otherName: null,
          attribute: false,
          addressees: named,
        },
        facts,
      );
      continue;
    }
    if (message.role === 'assistant' && message.name === null) continue;
    const speaker = message.name ?? owner;
    // "you" is one person only when exactly two named people talk.
    const other = message.name !== null && named.length === 2 ? (named.find((name) => name !== message.name) ?? null) : null;
    learnPassage(
      {
        text: message.text,
        messageIndex: message.index,
        reference,
        persons: { self: speaker, other },
        speakerName: speaker === defaultOwner && message.name === null ? null : speaker,
        otherName: other,
        attribute: true,
        addressees: named,
        before: previous,
        toAssistant: message.role === 'user' && message.name === null,
      },
      facts,
    );
    if (other !== null) learnNickname(message, speaker, other, reference, facts);
  }
  return deduplicate(facts);
}

/** "Hey Mel, …" from Hana to Melissa: "Hana calls Melissa by the nickname Mel." (nicknames.ts), once a conversation. */
function learnNickname(message: ReadMessage, speaker: string, other: string, reference: Date, facts: LearnedFact[]): void {
  const said = nicknameSaid(message.text, other);
  if (said === null) return;
  const text = nicknameFact(speaker, other, said.nickname);
  const kind = classifyFact(text);
  facts.push({
    text,
    kind,
    about: [speaker, other],
    nameTypes: ['person', 'person'],
    lasting: true,
    owner: false,
    date: isoDay(reference),
    sentence: { text: said.sentence, messageIndex: message.index, start: said.start, end: said.end },
    slot: null,
    context: message.text.slice(0, CONTEXT_CHARS),
  });
}

function ownerLabel(options: LearnOptions): string {
  const owner = options.owner?.trim();
  return owner === undefined || owner === '' ? defaultOwner : owner;
}

function learnPassage(passage: Passage, facts: LearnedFact[]): void {
  const date = isoDay(passage.reference);
  const found: LearnedFact[] = [];
  // Shared images become facts of their own; their markers are blanked (same length, so
  // offsets hold) before the text is cut into sentences.
  let text = passage.text;
  if (passage.persons.self !== null && text.includes('[')) {
    for (const match of passage.text.matchAll(sharedImage)) {
      const caption = match[1]!.replace(/[.\s]+$/u, '');
      text = text.slice(0, match.index) + ' '.repeat(match[0].length) + text.slice(match.index + match[0].length);
      if (caption === '') continue;
      const about: string[] = [];
      if (passage.speakerName !== null) addName(about, passage.speakerName);
      const factText = finish(`${nameAt(passage.persons.self, true)} shared ${caption}`, false);
      const kind = classifyFact(factText);
      found.push({
        text: factText,
        kind,
        about,
        nameTypes: about.map(() => 'person'),
        lasting: isLasting(factText, match[0], kind),
        owner: passage.speakerName === null,
        date,
        sentence: { text: match[0], messageIndex: passage.messageIndex, start: match.index, end: match.index + match[0].length },
      });
    }
  }
  // "I GOT THE JOB" is read in ordinary case (the same length), its sentence kept as written.
  const written = text;
  text = unshout(text);
  // Talk is set aside before tagging: compromise is the slowest step, so it reads only the
  // sentences that may hold a fact (the others blanked, which keeps every offset).
  const kept: Screened[] = [];
  let tagged = '';
  let taggedUpTo = 0;
  for (const segment of splitSentences(text)) {
    const screened = screenSentence(passage, segment);
    if (screened === null) continue;
    kept.push(screened);
    tagged += blank(text.slice(taggedUpTo, segment.start)) + segment.text;
    taggedUpTo = segment.end;
  }
  let tokens: Token[] = [];
  if (kept.length > 0) {
    tokens = tokenize(tagged);
    for (const screened of kept) {
      const fact = learnSentence(passage, tagged, tokens, screened, date, written);
      if (fact !== null) found.push(fact);
    }
  }
  found.sort((a, b) => a.sentence.start - b.sentence.start);
  // "My sister Ilse is a dentist. She lives in Graz.": "she" is Ilse.
  if (passage.persons.self !== null) {
    const owner = nameAt(passage.persons.self, true);
    const genderOf = (name: string) => genderOfName(tokens, name);
    // "Is Tova settling in at school?" — "She loves it.": in a user's reply to the assistant, "she" is
    // the one person the assistant's message ended on. Between named speakers a reply about someone
    // is the speaker's remark ("Leo said she will love it"), kept as said.
    if (passage.toAssistant === true) resolveReplyPronoun(found, passage.before, facts, owner, genderOf);
    resolveLeadingPronouns(found, owner, genderOf);
  }
  // The message before is often the question a reply answers, and a reply answers at its
  // opening: the first fact of a message (a shared image aside) holds it as its own context,
  // and so does a later one that refers back to it by a pronoun; the others with less weight.
  const opening = found.find((fact) => !fact.sentence.text.startsWith('['));
  for (const fact of found) {
    fact.slot = slotOf(fact.text, fact.about);
    if (passage.messageIndex === null) continue;
    fact.context = passage.text.slice(0, CONTEXT_CHARS);
    if (passage.before === undefined) continue;
    // The end of what came before: the message just before, where a question to answer sits.
    const before = passage.before.slice(-CONTEXT_CHARS);
    if (fact === opening || refersBack(fact.text)) fact.context += `\n${before}`;
    else fact.before = before;
  }
  facts.push(...found);
}

/** A sentence that may hold a fact, with its content (openers and vocatives set aside). */
interface Screened {
  segment: Segment;
  content: Content;
  question: boolean;
}

/** Sets aside greetings, thanks, reactions and questions that only ask; null for those. */
function screenSentence(passage: Passage, segment: Segment): Screened | null {
  const sentence = segment.text;
  // A statement with a question tagged on ("…, right?") is read as the statement, and so is one
  // that opens a question ("I'm 51 so is that too old to start climbing?").
  // "Can you remember that I take the 8:15?" asks only to keep what it says.
  const asks = isQuestion(sentence) && !asksToKeep(sentence);
  const tag = asks ? (tagQuestionStart(sentence) ?? statementLeadEnd(sentence)) : null;
  const within = (content: Content) => (tag === null ? content : { start: content.start, end: Math.min(content.end, tag) });
  const framed = within(findContent(sentence, passage.addressees, { reactions: false }));
  const question = asks && tag === null;
  const framedText = sentence.slice(framed.start, framed.end);
  if (question ? !questionCarriesFact(framedText) : isChitChat(framedText)) return null;
  const content = within(findContent(sentence, passage.addressees));
  if (!question && isChitChat(sentence.slice(content.start, content.end))) return null;
  return { segment, content, question };
}

/**
 * A name's gender as the tagger knows first names (compromise's female and male names): from its
 * token in this passage, or from the lexicon for a name said in another message; else null.
 */
function genderOfName(tokens: readonly Token[], name: string): Gender | null {
  const first = name.split(/\s+/)[0] ?? '';
  const tags = tokens.find((candidate) => candidate.text === first)?.tags;
  if (tags?.has('FemaleName')) return 'female';
  if (tags?.has('MaleName')) return 'male';
  const known = lexiconTags(first.toLowerCase());
  return known.includes('FemaleName') ? 'female' : known.includes('MaleName') ? 'male' : null;
}

/** Keeps line breaks (sentence boundaries for the tagger) and turns everything else into spaces. */
function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

function learnSentence(
  passage: Passage,
  text: string,
  tokens: readonly Token[],
  screened: Screened,
  date: string,
  written: string,
): LearnedFact | null {
  const { segment, content, question } = screened;
  const sentence = segment.text;
  const contentText = sentence.slice(content.start, content.end);

  // Tokens by their start within the sentence, for the steps that work on the sentence's text.
  const byStart = new Map<number, Token>();
  for (const token of tokensWithin(tokens, segment.start, segment.end)) {
    const start = token.start - segment.start;
    if (token.text !== '' && !byStart.has(start)) byStart.set(start, token);
  }
  const tokenAt = (start: number): Token | undefined => byStart.get(start);
  const contentTokens = tokensWithin(tokens, segment.start + content.start, segment.start + content.end);
  const tense = detectTense(contentText, contentTokens);

  const edits: Edit[] = [];
  // A date points back or ahead by the tense of its own clause: "The offer came through, I start on the 20th."
  const tenseAt = (at: number): Tense => {
    const clause = clauseAround(sentence, at);
    const clauseStart = Math.max(content.start, clause.start);
    const clauseEnd = Math.min(content.end, clause.end);
    const clauseTokens = tokensWithin(tokens, segment.start + clauseStart, segment.start + clauseEnd);
    // A clause without a verb of its own takes the sentence's tense: "I had a cast on, no swimming until March".
    if (!clauseTokens.some((token, index) => isFiniteVerb(token, clauseTokens[index - 1]))) return tense;
    return detectTense(sentence.slice(clauseStart, clauseEnd), clauseTokens);
  };
  const dates = resolveDates(sentence, passage.reference, tenseAt);
  edits.push(...dates.edits);
  const resolved = resolvePersons(sentence, passage.persons, { tokenAt, past: tense === 'past', surroundings: passage.text });
  edits.push(...resolved.edits);
  let selfNamed = resolved.self;
  let command = false;
  // A command's words and where they start (after any label), for advice.ts.
  let told: readonly Token[] = [];
  let toldStart = content.start;
  // "Always answer in Spanish", "Don't use emojis in your replies": how the assistant should answer from now on.
  const instructionAt =
    passage.toAssistant === true && !question ? standingInstruction(contentText, contentTokens, segment.start + content.start) : null;
  const instruction = instructionAt !== null;
  if (passage.persons.self !== null && !question && !instruction) {
    const context = { tokenAt, past: tense === 'past' };
    // A label before the news ("Holiday change: …", "Sad news, …") is no command and no dropped
    // subject, whatever its first word: what follows it may be ("Quick update: moved to Oslo").
    const label = labelEnd(contentText);
    const filled =
      fillDroppedSubject(sentence, content.start + label, content.end, passage.persons.self, context) ??
      // A note's clipped style ("Prefers window seats", "User is vegan") is about its owner.
      (passage.note === true ? fillNoteSubject(sentence, content.start, content.end, passage.persons.self, context) : null);
    if (filled !== null) {
      // The filled-in subject goes first so that it wins over any edit of the same word.
      edits.unshift(...filled);
      selfNamed = true;
    } else {
      told = label === 0 ? contentTokens : tokensWithin(tokens, segment.start + content.start + label, segment.start + content.end);
      toldStart = content.start + label;
      command = passage.attribute && isCommand(told);
    }
  }

  let factText: string | null = null;
  let keepQuestion = question;
  if (passage.persons.self !== null) {
    // "Have you seen my puppy?" and "Check out my painting!" both show what the speaker has; "Call me Bea"
    // (a command or not: "You can call me Bea") their name.
    const rewrite = rewriteQuestion(contentText);
    // "Look at this quilt I made!" shows the listener something, when it is a command ("Have you seen
    // this quilt?" asks) and the speaker's own: shared in the message, or said with "I" or "my"
    // ("Wow, look at this lovely garden!" looks at what the listener shared).
    const applies =
      rewrite !== null &&
      (rewrite.type === 'showed'
        ? command && (passage.text.search(sharedImage) !== -1 || ownWords.test(contentText.slice(rewrite.start, rewrite.end)))
        : question || command || rewrite.type === 'goes by');
    if (rewrite !== null && applies) {
      const part = within(sentence, edits, content.start + rewrite.start, content.start + rewrite.end);
      const speaker = nameAt(passage.persons.self, true);
      const article = rewrite.type === 'has' || rewrite.type === 'showed' ? (rewrite.article === '' ? '' : `${rewrite.article} `) : '';
      const listener = passage.persons.other === null ? '' : ` ${passage.persons.other}`;
      factText =
        rewrite.type === 'has'
          ? `${speaker} has ${article}${part}`
          : rewrite.type === 'showed'
            ? `${speaker} showed${listener} ${article}${part}`
            : rewrite.type === 'goes by'
              ? `${speaker} goes by the name ${part}`
              : part;
      keepQuestion = false;
      selfNamed = true;
    }
  }
  if (factText === null && instructionAt !== null && passage.persons.self !== null) {
    const start = content.start + instructionAt;
    const instructed = within(sentence, edits, start, content.end);
    factText = `${nameAt(passage.persons.self, true)}'s standing instruction to the assistant: ${lowerFirst(instructed, tokenAt(start))}`;
    selfNamed = true;
  }
  // Between two people, a command that says what to do is advice (advice.ts); the rest is talk
  // ("Take a look at this", "Stay positive").
  let advised = false;
  if (factText === null && command) {
    const listener = passage.persons.other;
    if (listener === null || passage.persons.self === null || !isAdvice(told)) return null;
    const advice = lowerFirst(within(sentence, edits, toldStart, content.end), tokenAt(toldStart));
    factText = adviceFact(nameAt(passage.persons.self, true), listener, advice);
    selfNamed = true;
    advised = true;
  }
  factText ??= within(sentence, edits, content.start, content.end);
  // A remark about something other than the speaker is written as theirs ("Omar said it was fun").
  const speaker = passage.persons.self;
  const reported = passage.attribute && !selfNamed && speaker !== null;
  if (reported) {
    const unchangedStart = factText.startsWith(contentText.split(/\s/)[0] ?? '');
    // A date written at the start ("Last night was…" → "The night of 14 August 2023 was…") opens with a plain word.
    const datedStart = /^(?:The|On|In)\s/.test(factText);
    const said =
      unchangedStart || datedStart
        ? lowerFirst(
            factText,
            unchangedStart ? tokenAt(content.start) : undefined,
            unchangedStart ? contentTokens.find((token) => token.text !== '' && token.start > segment.start + content.start) : undefined,
          )
        : factText;
    factText = `${nameAt(speaker, true)} said ${said}`;
    selfNamed = true;
  }
  factText = finish(factText, keepQuestion);
  if (normaliseForMatching(factText).length === 0) return null;

  const about: string[] = [];
  if (selfNamed && passage.speakerName !== null) addName(about, passage.speakerName);
  if ((resolved.other || advised) && passage.otherName !== null) addName(about, passage.otherName);
  for (const name of findNames(text, contentTokens, segment.start + content.start)) addName(about, name);
  const people = [...about];
  if (passage.persons.self !== null) people.push(passage.persons.self);
  if (passage.persons.other !== null) people.push(passage.persons.other);
  factText = tidyRepeatedPossessives(factText, people);
  // A rewrite may leave out part of the sentence; `about` names only what the fact mentions.
  const lowerText = factText.toLowerCase();
  const mentioned = about.filter((name) => lowerText.includes(name.toLowerCase()));

  const referenceDay = startOfDay(passage.reference);
  const future = tense !== 'past' && dates.days.some((day) => day > referenceDay);
  // A standing instruction is how the user likes to be answered, whatever its words.
  const kind = instruction ? 'pref' : classifyFact(factText, { future });
  const talking = [passage.speakerName, passage.otherName, ...passage.addressees];
  return {
    text: factText,
    kind,
    about: mentioned,
    nameTypes: nameTypes(mentioned, { text, tokens: contentTokens, start: segment.start, end: segment.end, people: talking }),
    lasting: isLasting(factText, sentence, kind),
    // The owner is the one the learner calls "The user": never a name, so never in `about`.
    owner: passage.persons.self !== null && passage.speakerName === null && /\bthe user\b/i.test(factText),
    date,
    sentence: {
      text: written.slice(segment.start, segment.end),
      messageIndex: passage.messageIndex,
      start: segment.start,
      end: segment.end,
    },
    ...(reported ? { reported: true } : {}),
  };
}

/**
 * Whether a sentence opens with a bare verb, as commands do ("Keep going", "Check it out"). A
 * word that can be a verb but opens a noun before "is", "has" or "was" names the subject
 * instead: "Dance practice has been fun", "Work trips are tiring".
 */
function isCommand(tokens: readonly Token[]): boolean {
  const [first, second, third] = tokens.filter((token) => token.text !== '');
  if (first === undefined || first.normal === "let's" || first.normal === 'lets') return false;
  // "Back in March I…", "Back then we…": a time looked back to, not an order to back something.
  if (first.normal === 'back' && /^(?:in|on|at|when|then|during|before|around)$/.test(second?.normal ?? '')) return false;
  if (second?.tags.has('Noun') && !second.tags.has('Pronoun') && (third?.tags.has('Auxiliary') || third?.tags.has('Copula'))) return false;
  const tags = first.tags;
  return (
    tags.has('Verb') &&
    tags.has('Infinitive') &&
    !tags.has('PastTense') &&
    !tags.has('Gerund') &&
    !tags.has('Auxiliary') &&
    !tags.has('Modal')
  );
}

/**
 * Whether a token is a verb that carries a tense: not a gerund or a participle on its own ("no
 * swimming", "the lease running out"), nor an infinitive after "to".
 */
function isFiniteVerb(token: Token, before: Token | undefined): boolean {
  if (!token.tags.has('Verb') || token.tags.has('Gerund')) return false;
  if (token.tags.has('Participle') && !before?.tags.has('Auxiliary')) return false;
  return !(token.tags.has('Infinitive') && before?.normal === 'to');
}

/** Punctuation that ends a clause within a sentence. */
const CLAUSE_BREAK = /[,;:–—]/;

/** The bounds of the clause of `sentence` holding `at`: from after the clause break before it to the next one. */
function clauseAround(sentence: string, at: number): { start: number; end: number } {
  const before = sentence.slice(0, at);
  let start = before.length;
  while (start > 0 && !CLAUSE_BREAK.test(before[start - 1]!)) start--;
  const next = sentence.slice(at).search(CLAUSE_BREAK);
  return { start, end: next === -1 ? sentence.length : at + next };
}

/** The text of sentence[start, end) with the edits that fall inside it applied. */
function within(sentence: string, edits: readonly Edit[], start: number, end: number): string {
  const inside = edits
    .filter((edit) => edit.start >= start && edit.end <= end)
    .map((edit) => ({ start: edit.start - start, end: edit.end - start, text: edit.text }));
  return applyEdits(sentence.slice(start, end), inside);
}

/** Tags of a first word that is no part of a name, though a capitalised word follows ("Lucky Ilse", "Wishing Ilse well"). */
const NOT_NAME_START = [
  'Determiner',
  'Pronoun',
  'Preposition',
  'Conjunction',
  'QuestionWord',
  'Adverb',
  'Adjective',
  'Verb',
  'Gerund',
  'Expression',
];

/**
 * Lower-cases the first letter after "said", unless it opens a name or an acronym: a proper
 * noun, or a noun the speaker wrote before another capitalised word ("Horseshoe Tavern on the 18th").
 */
function lowerFirst(text: string, firstToken: Token | undefined, secondToken?: Token): string {
  const firstWord = /^\S+/.exec(text)?.[0] ?? '';
  const keep =
    /^\p{Lu}{2,}/u.test(firstWord) ||
    (firstToken !== undefined && ['ProperNoun', 'Person', 'Place', 'Organization'].some((tag) => firstToken.tags.has(tag))) ||
    /^I\b/.test(firstWord) ||
    (firstToken !== undefined &&
      secondToken !== undefined &&
      firstToken.tags.has('Noun') &&
      !NOT_NAME_START.some((tag) => firstToken.tags.has(tag)) &&
      !/ing$/i.test(firstToken.text) &&
      !isInterjection(firstToken.text) &&
      // Next to each other, as a name's words are ("Oof, John" is a cry and a name).
      secondToken.start === firstToken.end + 1 &&
      /^\p{Lu}\p{Ll}/u.test(secondToken.text) &&
      secondToken.text !== 'I');
  return keep ? text : text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Final wording: slang spelt out, spaces tidied, emoji and exclamation marks dropped, a
 * capital at the start and a full stop (or a question mark for a question kept) at the end.
 */
function finish(text: string, question: boolean): string {
  let result = text
    .replace(/\bgonna\b/gi, 'going to')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\bgotta\b/gi, 'have to')
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]+/gu, ' ')
    .replace(/(?:^|\s)(?:[:;=]-?[)(DPp3\]/]|<3+|xD+)(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    // Not before a word: "files are .ai" keeps its space.
    .replace(/\s+([,.!?;:]+)(?![\p{L}\p{N}])/gu, '$1')
    .trim()
    .replace(/[\s,;:–—-]+$/u, '');
  result = result.replace(/[.!?…]+(["'’”)\]]*)$/u, '$1');
  // The full stop goes inside closing quotes ('… "Dune."') but after a bracket ("Leo (4).").
  const closing = /["'’”]*$/u.exec(result)?.[0] ?? '';
  const body = result.slice(0, result.length - closing.length).replace(/[\s,;:]+$/u, '');
  result = `${body}${question ? '?' : '.'}${closing}`;
  return result.charAt(0).toUpperCase() + result.slice(1);
}

function deduplicate(facts: LearnedFact[]): LearnedFact[] {
  const seen = new Set<string>();
  return facts.filter((fact) => {
    const fingerprint = factFingerprint(fact.text);
    if (seen.has(fingerprint)) return false;
    seen.add(fingerprint);
    return true;
  });
}

function isoDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

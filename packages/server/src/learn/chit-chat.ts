/**
 * Telling talk that carries no fact (greetings, thanks, reactions, bare questions) from talk
 * that does. The rules look at the words only, so they are the same for every speaker.
 */

import { couldBeName } from './names.js';

/** Words that open a sentence without adding to it ("Wow, …", "Yeah, …", "Hey Bea, …"), as a pattern's source. */
export const interjection =
  '(?:hey there|hi there|oh my god|oh my gosh|oh my|guess what|you know what|oh wow|oh man|oh no|oh yeah|by the way|thank you so much|thank you|thanks so much|thanks a lot|' +
  'hey|hi|hello|hiya|heya|yo|alright|allright|aight|wow|whoa|woah|oh+|ooh+|aw+|ah+|yeah|yea|yes|yep|yup|nope|nah|naw|no|ok|okay|sure|well|ha(?:ha)+|lol|omg|hm+|um+|uh|' +
  'totally|absolutely|definitely|indeed|right|great|cool|awesome|nice|amazing|wonderful|thanks|thx|congrats|congratulations|gosh|man|dude|' +
  'honestly|anyway|anyways|btw|exactly|true|hehe|yay|woo+hoo+|woo+|sweet|perfect|agreed|same|ugh+|urgh|meh|phew|welp|lmao|lmfao|rofl)';
const leadingInterjection = new RegExp(`^${interjection}(?:\\s+\\p{Lu}[\\p{L}'’]*){0,2}\\s*(?:[,!.…:;]+|\\s[-–—])\\s*`, 'iu');
const interjectionWord = new RegExp(`^${interjection}$`, 'iu');
/** Whether a word is an interjection ("Woohoo", "Oof"), never the start of a name. */
export function isInterjection(word: string): boolean {
  return interjectionWord.test(word);
}
/**
 * Words that open a sentence without a pause and still add nothing ("lol I finally passed", "Ok so the
 * wedding is off"): laughter and cries that never start a statement, and "ok so".
 */
const bareInterjection =
  /^(?:lol|lmao|lmfao|rofl|ha(?:ha)+|he(?:he)+|omg|ugh+|yay+|woo+|phew|welp|(?:ok|okay|yeah|alright) so(?! (?:far|much|many|long|that|to speak)\b))\s+(?=\S)/iu;
const onlyInterjection = new RegExp(`^${interjection}(?:\\s+\\p{Lu}[\\p{L}'’]*){0,2}\\s*[,!.…?]*$`, 'iu');
/** A reaction opening a clause about someone ("So cool you found…", "Great that I…"). */
const leadingReaction =
  /^(?:(?:it['’]s|that['’]s|it is|that is)\s+)?(?:so\s+|really\s+|super\s+|very\s+)?(?:cool|great|awesome|amazing|nice|wonderful|good|glad|happy|neat|sweet|crazy|funny|wild)\s+(?:that\s+|to see\s+|to hear\s+)?(?=(?:you|i|we|your|my)\b)/iu;
/** Words that join a sentence to the one before without adding to it ("And here's…", "So I…", "So I'm…"). */
const leadingConnector =
  /^(?:(?:and|but|plus|anyway|anyways|oh and|also)\s+|speaking of [^,]{1,40},\s*|(?:so|well|now|then)\s+(?=(?:i|we|my|our)\b))/iu;
/**
 * Words asking the listener to keep what follows ("Remember that I'm allergic to nuts", "Please
 * note: my flat is 4B", "FYI I moved to Lisbon", "Can you remember that I take the 8:15?"). They
 * are set aside so that what follows is learned as said; they count only before a clause about
 * the speaker or a named person ("Remember that time we…" and "Don't forget your keys" stay).
 */
const leadingKeepRequest = new RegExp(
  '^(?:(?:please|so|and|also|oh and|just)\\s+)?' +
    "(?:(?:i want you to|i'd like you to|i would like you to|i need you to|(?<asking>(?:can|could|will|would) you)(?: please)?)\\s+)?(?:please\\s+)?" +
    "(?:remember|keep in mind|bear in mind|don['’]t forget|do not forget|never forget|make a (?:mental )?note(?: of this)?|take note|note down|note|" +
    'remind me|write down|save this|for the record|fyi|f\\.y\\.i\\.|for your information|for future reference|just so you know|so you know|' +
    '(?:just )?to let you know|(?:a )?(?:quick )?heads[- ]up|for context)' +
    '(?:\\s+(?:(?<that>that|the fact that)|this))?(?:\\s*[:,–—-]\\s*|\\s+)',
  'iu',
);
/** What a request to keep may go before: the speaker ("I'm…", "my…") or a named person ("Ilse is…", "Ilse's…"). */
const keptSpeaker = /^(?:i|i['’](?:m|ve|ll|d)|we|we['’](?:re|ve|ll|d)|my|our)\b/iu;
const keptNamed = /^\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?(?:['’]s\b|\s+(?:is|was|has|had|and)\b)/u;
/** After "that", a clause about a thing: "Remind me that the dentist is on Friday". */
const keptThing = /^the\s+(?:[\p{L}\p{N}'’-]+\s+){1,4}(?:is|are|was|were|has|have|will|starts|ends|opens|closes)\b/iu;
/** A request to keep what follows at the start of `content`: where it ends, and whether it asks ("Can you…"). */
function keepRequest(content: string): { end: number; asking: boolean } | null {
  const request = leadingKeepRequest.exec(content);
  if (request === null) return null;
  const rest = content.slice(request[0].length);
  const clause = request.groups?.that !== undefined && keptThing.test(rest);
  if (!keptSpeaker.test(rest) && !keptNamed.test(rest) && !clause) return null;
  if ((rest.match(/\S+/g) ?? []).length < 2) return null;
  return { end: request[0].length, asking: request.groups?.asking !== undefined };
}

/** Where a request to keep what follows ends (see leadingKeepRequest), or 0 when the sentence has none. */
export function keepRequestEnd(content: string): number {
  return keepRequest(content)?.end ?? 0;
}
/**
 * Whether a question is only a request to keep what it says ("Can you remember that I take the
 * 8:15?"): its question mark belongs to the request, and what follows is said, not asked.
 */
export function asksToKeep(sentence: string): boolean {
  return keepRequest(sentence.slice(leadingInterjection.exec(sentence)?.[0].length ?? 0))?.asking ?? false;
}

/**
 * A label announcing what follows ("Quick update:", "Holiday change:", "Fun fact:", "PS:", "Sad news,"). It
 * stays in the fact (its words may name the topic: "Rowing update: I can row 5 km now"),
 * but its first word is no command ("Holiday …" is not telling anyone to holiday).
 */
const leadingLabel =
  /^(?!(?:my|our|your|his|her|their|the|a|an)\b)(?:[\p{L}'’-]+ ){0,2}(?:update|updates|change|changes|news|note|question|confession|fact|thought|reminder|heads[- ]up|ps|p\.s\.|edit|status|progress|recap|tip|warning|spoiler|plot twist|moment|milestone|win|brag|announcement|alert|highlight)\s*[:–—-]\s+(?=\S)|^(?:[\p{L}'’-]+ )?news,\s+(?=\S)/iu;
/** Where a leading label of `content` ends (see leadingLabel), or 0 when it has none. */
export function labelEnd(content: string): number {
  const label = leadingLabel.exec(content);
  return label !== null && (content.slice(label[0].length).match(/\S+/g) ?? []).length >= 2 ? label[0].length : 0;
}

/** Emoji, emoticons and closing marks that end a chat sentence without meaning anything. */
const trailingNoise =
  /(?:\s*(?:[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]|[:;=8xX]-?[)(DPp3\]/|\\]|<3+|\^_?\^|xD+|XD+))+\s*$/u;

const adjectives =
  '(?:great|cool|awesome|amazing|wonderful|fantastic|sweet|nice|lovely|fun|beautiful|gorgeous|stunning|' +
  'incredible|impressive|inspiring|inspirational|exciting|interesting|good|brilliant|neat|tough|hard|rough|sad|' +
  'terrible|awful|crazy|wild|insane|hilarious|funny|adorable|cute|special|powerful|perfect|true|right|fair|smart|' +
  'wise|thoughtful|kind|touching|heartwarming|moving|meaningful|important|huge|epic|rad|fabulous|magical|unreal|' +
  'unbelievable|excellent|super|relaxing|peaceful|calming|scary|intense|exhausting|refreshing|therapeutic|' +
  'wholesome|precious|priceless|understandable|a bummer|a relief|a blast|vital|key|spot on|encouraging|' +
  'uplifting|empowering|rewarding|fulfilling|cozy|delicious|tasty|yummy|a great idea|a good idea|a lot|tragic|' +
  'heartbreaking|stressful|frustrating|annoying|admirable|commendable|remarkable|outstanding|magnificent|' +
  'breathtaking|serene|charming|lucky|unique|creative|clever|a dream|dreamy|fascinating|great to hear|good to hear|' +
  'nice to hear|a shame|too bad|a pity)';
const reactionNouns =
  '(?:idea|news|plan|thing|one|stuff|story|stories|moment|experience|time|memory|memories|photo|pic|picture|shot|view|achievement|' +
  'accomplishment|goal|way|place|spot|find|choice|approach|job|work|progress|step|attitude|mindset|outlook|message|thought|quote|sight|' +
  'combo|combination|pup|dog|cat|family|painting|art|day|trip|event|gesture|reminder|feeling|project|opportunity|cause|initiative)';
/** Reactions; among the words of degree before the adjective, `\w+ly` reads "really", "totally" and "truly". */
const reactionPatterns: RegExp[] = [
  new RegExp(
    `^(?:wow,? |oh,? )?(?:that|this|it|which|all that|these|those|they|you|you two|(?:that|this|these|those|your)(?: [\\w-]+){1,3})(?:'s| is| was| are| were| sounds| sound| look| looks| seems| seem| must be| must have been| must've been| would be| feels| feel)` +
      `(?: \\w+ly| so| such| very| pretty| super| just| quite| a| an| too| beyond| like| soo+| the| most| not| always)* ${adjectives}` +
      `(?: ${reactionNouns})?(?: to (?:hear|see|know|me))?(?:,? (?:for you|for them|of you|man|dude|indeed|though|too))?$`,
  ),
  new RegExp(
    `^(?:sounds|looks|seems|feels)(?: like)?(?: \\w+ly| so| super| a| an| such| just| pretty| very| soo+)* ${adjectives}(?: ${reactionNouns})?(?: to (?:hear|see|me))?$`,
  ),
  new RegExp(
    `^(?:so|how|what an?|such an?|really|very|super|soo+)(?: \\w+ly| so| very| super| an| a)* ${adjectives}(?: ${reactionNouns})?(?:,? (?:indeed|too))?$`,
  ),
  new RegExp(`^(?:what an?|such an?|an?) (?:\\w+ )?${reactionNouns}$`),
  new RegExp(`^(?:\\w+ly |so |very |super |just |pretty |quite )*${adjectives}(?: ${reactionNouns})?(?: to (?:hear|see))?$`),
];
/** Fixed phrases of conversation: greeting, leave-taking, thanks, agreement, encouragement. */
const pleasantries = new RegExp(
  '^(?:' +
    [
      "(?:it'?s |it is |so |really |very )*(?:good|great|nice|lovely|awesome|wonderful|cool|fun) (?:to |that i (?:got|get) to )?(?:see|hear from|hear|talk to|chat with|catch up with|catch up|meet|reconnect with|connect with) (?:you|ya)\\b.*",
      '(?:talk|see|catch|speak|chat)(?: to| with)? (?:you|ya|u)\\b.*',
      '(?:take care|bye|goodbye|good ?night|good morning|good evening|good afternoon|cheers|later|ttyl|until next time)\\b.*',
      'have (?:a|an|the|your) (?:\\w+ )?(?:day|night|weekend|one|time|evening|trip|rest of (?:the|your) \\w+)\\b.*',
      '(?:thanks|thank you|thank u|thx|ty|many thanks|much appreciated|appreciate (?:it|that|you|the|your))(?! to)\\b.*',
      "(?:no problem|no worries|of course|anytime|you'?re welcome|my pleasure|sure thing|good luck|best of luck|congrats|congratulations|well done|good job|great job|nice job|nice work|great work)\\b.*",
      "(?:i'?m|i am|we'?re|we are) (?:always |still |all )?(?:here|there) for (?:you|ya)\\b.*|i(?:'ve| have)? got your back\\b.*",
      "(?:keep it up|keep up the (?:\\w+ )?work|keep (?:on )?(?:going|shining|rocking|pushing)|you got this|you've got this|you can do (?:it|this)|go for it|don't give up|hang in there)\\b.*",
      '(?:me too|me neither|same|(?:i )?(?:totally |completely |fully |really |so |definitely |absolutely )?agree(?:d)?|i know,? right|exactly|for sure|i can imagine|i bet|i hope so|hope so|sounds like a plan|deal|way to go)\\b.*',
      // Alone; as an opener ("Guess what - I got a puppy!") they are interjections, set aside before this test.
      '(?:guess what|you know what)(?: then| now)*',
      // "I see" and "I understand" alone or before a pause; with an object they tell something ("I see my physio twice a month").
      "(?:i see|i understand)(?: (?:then|now|too|though|completely|totally|what you mean|what you're saying|why|how you feel|that|it))*(?:[,;:!…–—-].*)?",
      '(?:i )?hope (?:you|all|everything|it|that|things|your)\\b.*',
      '(?:you deserve (?:it|that|this)|good for you|enjoy|have fun|that makes sense|makes sense|tell me more)\\b.*',
      // "Look at this!", "Look at these - so cute": alone or before a pause; "Look at this quilt I made" shows it (questions.ts).
      '(?:look at (?:this|that|these|those))(?:\\s*[,;:!…–—-].*)?',
      "(?:let me know|take a look|check (?:it|this|that) out|you've got guts|you'?re right|you are right|you'?re so right|you said it)\\b.*",
      "(?:i'?m |i am )?(?:so |really |very |just |super )*(?:glad|happy|thrilled|excited|proud|sorry) (?:to hear|for you|that you|you|of you|about that|it|we|that we)\\b.*",
      "(?:i'?m |i am )?(?:so |really |very )*sorry\\b.*",
      '(?:miss you|love you|bless you|xoxo|lol|haha|hugs)\\b.*',
      // Alone: "Never mind, the bus came" tells something after the pause.
      '(?:never ?mind|nevermind)(?: (?:that|then|it|me|about (?:that|it)))?',
      // A reply to advice that was followed; "The new pump worked" names what did.
      '(?:it|that|this) (?:worked|helped|did the trick|fixed it)(?: (?:perfectly|great|fine|well|like a charm|a lot|so much))?',
      "(?:can't wait to (?:hear|see) (?:more|it|them|what|how|about))\\b.*",
      "(?:what's up|what's new|how are you|how's it going|how have you been|long time no (?:see|talk|chat|speak))\\b.*",
      "(?:it|that|they|you|i|we|this) (?:sure |really |totally |definitely |certainly |still )?(?:does|do|is|was|did|will|can|are|am|have|has|had|were)(?: not|n't)?(?: too| indeed)?",
    ].join('|') +
    ')$',
);
/** First-person words: a question that has one may carry a fact about the speaker ("i" also reads "i'm", "we" "we're"). */
const firstPerson = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b/;
/**
 * Question frames whose "I" or "me" is part of asking, not a fact ("Can I ask…", "Tell me…",
 * "Could you send me…": a request to the one listening),
 * and questions about the speaker's own facts ("Do I like…?", "What am I allergic to?", "Where's
 * my…?", "Can you remind me what I said about my flat?": a question within one, to its end): they
 * ask what is known and tell nothing new. So do the frames of turning a talk to the listener
 * ("Enough about me, what have you been up to?", "I'm curious, what is it about?"). ("Guess what
 * I did this week?" is kept: it often carries the time of the news the next sentence tells.)
 */
const questionFrames =
  /\b(?:enough about (?:me|us)\b.*|(?:i'm|i am|we're|we are) (?:so |really |just )?curious\b|(?:(?:do|can|could|would|will) you (?:please |still )?)?(?:remember|recall|remind me|tell me|know)(?: again)? (?:what|where|when|who|which|how|whether|if)\b.*|(?:what|where|when|who|which|how)(?: \w+)? (?:do|did|have|had) (?:i|we) (?:ever )?(?:say|said|tell|told|mention|mentioned|write|wrote|decide|decided|ask|asked)\b.*|do you think (?:i|we)|should (?:i|we)|can (?:i|we)|could (?:i|we)|may i|shall (?:i|we)|let me|let us|tell me|show me|remind me|ask me|mind if i|know what i mean|would you like me|want me to|do you remember me|if you don't mind me asking|if i may ask|if i can ask|me too|me neither|to me|with me|for me|join me|help me|fill me in|keep me posted|since (?:we|i) (?:last |first )?(?:talked|spoke|chatted|caught up|saw each other|met)|(?:is there )?anything (?:else )?(?:i|we) can do|(?:(?:what|where|when|who|which|why|how)(?: \w+)? )?(?:do|did|am|was|were|are|have|had|would) (?:i|we)|(?:what|which|where|when|how) (?:i|we) (?:said|told you|mentioned|asked|wrote|decided)|(?:what|where|when|who|which|how)(?: \w+)?(?: is|'s| was| are| were) (?:my|our)|(?:can|could|would|will) you (?:please )?(?:\w+ )?(?:me|us))\b/g;

/** Where the content of a sentence starts and ends once openers, vocatives and emoji are set aside. */
export interface Content {
  start: number;
  end: number;
}

/**
 * Sets aside what frames a sentence without adding to it: leading interjections ("Wow,",
 * "Hey Bea,"), a leading or trailing name used to address someone ("Beatrice, …", "…, Bea!")
 * and trailing emoji. With `reactions` (the default) a reaction opening a clause goes too
 * ("So cool you found…"); test for chit-chat without it, so "Glad you like it" stays talk.
 * `names` are the names of the people talking; any prefix of three or
 * more letters counts, since friends shorten names ("Bea" for "Beatrice"), and one of two that
 * the lexicon lets be a name ("Jo" for "Josephine").
 */
export function findContent(sentence: string, names: readonly string[], options: { reactions?: boolean } = {}): Content {
  const reactions = options.reactions ?? true;
  let start = 0;
  let end = sentence.length;
  for (let step = 0; step < 4; step++) {
    const rest = sentence.slice(start, end);
    const match = leadingInterjection.exec(rest) ?? bareInterjection.exec(rest);
    if (match !== null && match[0].length < rest.length) {
      start += match[0].length;
      continue;
    }
    const keep = keepRequestEnd(rest);
    if (keep > 0) {
      start += keep;
      continue;
    }
    const pleasantry = pleasantryLeadEnd(rest);
    if (pleasantry > 0) {
      start += pleasantry;
      continue;
    }
    const reaction = (reactions ? leadingReaction.exec(rest) : null) ?? leadingConnector.exec(rest);
    if (reaction !== null && (rest.slice(reaction[0].length).match(/\S+/g) ?? []).length >= 2) {
      start += reaction[0].length;
      continue;
    }
    // "Bea, …", or "Bea you…" without the comma.
    const vocative = /^(\p{Lu}[\p{L}'’]*)(?:\s*,\s*|\s+(?=[Yy]ou(?:r|['’](?:re|ve|ll|d))?\b))/u.exec(rest);
    if (vocative !== null && isName(vocative[1]!, names) && vocative[0].length < rest.length) {
      start += vocative[0].length;
      continue;
    }
    break;
  }
  const noise = trailingNoise.exec(sentence.slice(start, end));
  if (noise !== null && noise.index > 0) end = start + noise.index;
  const rest = sentence.slice(start, end);
  const vocative = /,\s*(\p{Lu}[\p{L}'’]*)\s*[.!?…]*$/u.exec(rest);
  if (vocative !== null && isName(vocative[1]!, names)) end = start + vocative.index;
  return { start, end };
}

function isName(word: string, names: readonly string[]): boolean {
  const lower = word.toLowerCase();
  return names.some((name) => {
    const [first = ''] = name.toLowerCase().split(/\s+/);
    // Two letters only when the lexicon lets them be a name ("Jo" for Josephine, not "Me" for Melissa).
    return first.startsWith(lower) && (lower.length >= 3 || (lower.length === 2 && couldBeName(lower)));
  });
}

/** Lower case, straight apostrophes, single spaces, no closing punctuation: the form the patterns read. */
export function normaliseForMatching(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(trailingNoise, '')
    .replace(/[\s"“”]+/g, ' ')
    .replace(/[\s.!?…,;:~-]+$/u, '')
    .replace(/^[\s"“”]+/u, '')
    .trim();
}

/** The fewest words of a clause after a pleasantry that is learned ("I tried it on Sunday"). */
const PLEASANTRY_REST_WORDS = 5;
/** A clause break a pleasantry may end at: a comma, a semicolon, or a dash between spaces. */
const clauseBreak = /\s*[,;]\s+|\s+[-–—]\s+/gu;

/**
 * Where a pleasantry that opens a sentence ends when a clause about the speaker or a named person
 * follows it ("Sorry if I'm slow to reply, my dog keeps stealing my notebooks" → "my dog…";
 * "Thanks for the tip, I tried it on Sunday"), or 0. The pleasantry must be one by itself (see
 * pleasantries) and what follows must open with the speaker ("I", "my", "we") or a name and a
 * verb, PLEASANTRY_REST_WORDS words at least: "Sorry to hear that, hope she's ok" and "Thanks
 * for the support, I really appreciate it" stay talk.
 */
export function pleasantryLeadEnd(content: string): number {
  for (const match of content.matchAll(clauseBreak)) {
    const lead = normaliseForMatching(content.slice(0, match.index));
    const rest = content.slice(match.index + match[0].length);
    if (!pleasantries.test(lead)) continue;
    if (!keptSpeaker.test(rest) && !keptNamed.test(rest)) return 0;
    return (rest.match(/\S+/g) ?? []).length >= PLEASANTRY_REST_WORDS ? match.index + match[0].length : 0;
  }
  return 0;
}

/** Whether a statement (the content of a sentence) is only conversation: greeting, thanks, reaction. */
export function isChitChat(content: string): boolean {
  if (onlyInterjection.test(content.trim())) return true;
  const normal = normaliseForMatching(content);
  const words = normal.match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length < 2) return true;
  if (pleasantries.test(normal)) return true;
  return reactionPatterns.some((pattern) => pattern.test(normal));
}

/** A question tagged onto a statement ("…, right?", "…, huh?", "…, doesn't it?"): the statement stands. */
const tagQuestion =
  /[,\s\-–—]+(?:right|huh|eh|ya know|you know|yeah|no|isn['’]t it|doesn['’]t it|didn['’]t it|wasn['’]t it|aren['’]t they|don['’]t they|don['’]t you think|doesn['’]t \p{Lu}[\p{L}'’]* think|wouldn['’]t you say|hasn['’]t it|haven['’]t they|isn['’]t that so|am i right|true)\s*\?[\s"'’”)\]]*$/iu;

/**
 * Where a tagged question's statement ends ("It's wild how small things matter, right?" → before
 * ", right?"), or null when the sentence is no statement with a question tagged on.
 */
export function tagQuestionStart(sentence: string): number | null {
  const match = tagQuestion.exec(sentence.replace(trailingNoise, ''));
  if (match === null || (sentence.slice(0, match.index).match(/[\p{L}\p{N}']+/gu) ?? []).length < 3) return null;
  return match.index;
}

/**
 * A statement about the speaker that opens a question ("I'm 51 so is that too old to start
 * climbing?", "We just adopted a kitten, what should we feed her?"): the first clause opens with
 * "I" or "we" (after at most two openers such as "so" or "also") and ends where a clause that asks
 * begins, after a comma, a dash, a semicolon, or "so" / "but".
 */
const statementLead = new RegExp(
  String.raw`^(?:(?:so|well|ok|okay|also|and|honestly|anyway|btw|hey|hi|plus|lately|recently|just)[,:]?\s+){0,2}` +
    String.raw`(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|we|we're|we’re|we've|we’ve|my|our)\s+\S[^?]*?` +
    String.raw`(?:(?:\s*[,;]\s*|\s+[-–—]\s+)(?:(?:so|and|but)\s+)?|\s+(?:so|but)\s+)` +
    String.raw`(?=(?:what|which|how|when|where|who|why|should|shall|could|would|can|do|does|did|is|isn['’]t|are|was|will|any|anything|maybe|am|have|has)\b)`,
  'iu',
);
/**
 * Leads that only frame the asking ("I was wondering, …", "I have a question: …", "I'm not sure,
 * should I…"): they say nothing of the speaker's life.
 */
const askingLead =
  /^(?:(?:so|well|ok|okay|also|and|honestly|anyway|btw|hey|hi|plus)[,:]?\s+){0,2}(?:i(?:\s+(?:was|am)|['’]m)\s+(?:just\s+|really\s+|a bit\s+)?(?:wondering|curious|thinking|not sure|unsure|confused|stuck|torn)|i(?:\s+(?:have|had|got)|['’]ve(?:\s+got)?)\s+(?:a|one|another|some)\s+(?:quick\s+)?questions?|i(?:\s+(?:need|want|would like)|['’]d like)\s+(?:some\s+|your\s+)?(?:help|advice|ideas|tips|suggestions|to know|to ask|a hand)|i\s+(?:think|guess|mean|wonder|suppose|dunno|don['’]t know|can['’]t decide|can['’]t remember|forgot))\b/iu;

/**
 * Where the statement that opens a question ends (see `statementLead`), or null when the question
 * opens with no statement of its own: the statement is learned as a fact, the asking set aside.
 */
export function statementLeadEnd(sentence: string): number | null {
  const text = sentence.replace(trailingNoise, '');
  if (!/\?[\s"'’”)\]]*$/u.test(text) || askingLead.test(text)) return null;
  const match = statementLead.exec(text);
  if (match === null) return null;
  const lead = text.slice(0, match[0].length).replace(/(?:[\s,;:\-–—]|\b(?:so|and|but)\b)+$/iu, '');
  if ((lead.match(/[\p{L}\p{N}]+/gu) ?? []).length < 3) return null;
  return lead.length;
}

/** Whether the content asks something (ends with a question mark). */
export function isQuestion(content: string): boolean {
  return /\?[\s"'’”)\]]*$/u.test(content.replace(trailingNoise, ''));
}

/**
 * Whether a question still tells something about the speaker once the asking is set aside:
 * "Have you seen my new puppy, Rex?" does, "How are you?" and "Can I ask you something?" do not.
 */
export function questionCarriesFact(content: string): boolean {
  const normal = normaliseForMatching(content);
  if (pleasantries.test(normal)) return false;
  return firstPerson.test(normal.replace(questionFrames, ' '));
}

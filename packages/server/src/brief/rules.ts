/**
 * The named rules that find a project's state, intentions and lessons in sentences. Each rule
 * has an id, a one-line reason, and invented examples it must match and counter-examples it
 * must not (rules.test.ts runs them as a table). Rules only look at one sentence; headings and
 * checklists are read in learn-structures.ts.
 */

/** The fields of a project's state. */
export type StateField = 'goal' | 'focus' | 'open' | 'decision' | 'next' | 'done';

/** What a rule can find. */
export type Structure = 'state' | 'intention' | 'lesson';

/** The type of a lesson (LessonOut.type). */
export type LessonType = 'rule' | 'how-to' | 'lesson';

/** What a rule found in a sentence: the part that says it, and for lessons when it applies. */
export interface RuleMatch {
  text: string;
  field?: StateField;
  lessonType?: LessonType;
  appliesWhen?: string | null;
}

/** One named rule. */
export interface Rule {
  id: string;
  structure: Structure;
  reason: string;
  match(sentence: string): RuleMatch | null;
  examples: string[];
  counterExamples: string[];
}

/** Trims a captured clause: spaces, a closing full stop, a leading "to". */
export function clause(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s:;,–—-]+/u, '')
    .replace(/[\s.;,!]+$/u, '')
    .trim();
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A rule from a pattern whose first group (or the whole match) is what it says. */
function pattern(
  id: string,
  structure: Structure,
  reason: string,
  regex: RegExp,
  extra: Omit<RuleMatch, 'text'>,
  examples: string[],
  counterExamples: string[],
  whole = false,
): Rule {
  return {
    id,
    structure,
    reason,
    examples,
    counterExamples,
    match(sentence) {
      const found = regex.exec(sentence);
      if (found === null) return null;
      const text = clause(whole ? sentence : (found.slice(1).find((group) => group !== undefined) ?? found[0]));
      if (text.length < 3) return null;
      return { ...extra, text: capital(text) };
    },
  };
}

/* ------------------------------------------------------------------ screens */

/**
 * Sentences that state nothing to keep, whatever rule they would match: questions,
 * hypotheticals, hedges, denials and reported or quoted speech.
 */
export const screens: { id: string; reason: string; test: (sentence: string) => boolean }[] = [
  { id: 'question', reason: 'A question asks; it states no goal, promise or rule.', test: (s) => /\?\s*["'”’)]*\s*$/u.test(s) },
  {
    id: 'hypothetical',
    reason: 'A supposition ("if we…", "what if…", "suppose…", "imagine…") is not a commitment.',
    test: (s) => /^(?:if|what if|suppose|supposing|imagine|assuming|in case|unless|hypothetically|in theory)\b/i.test(s.trim()),
  },
  {
    id: 'hedge',
    reason: 'A hedge ("maybe", "we\'ll see", "I might", "would be nice") is not a decision or a promise.',
    test: (s) =>
      /\b(?:we'?ll see|we will see|maybe|perhaps|might|may be|not sure|who knows|would be nice|could be|possibly|i guess|i wonder|wondering)\b/i.test(
        s,
      ) || /\b(?:I|we|you|they|he|she)(?:'d| would| could)\b/i.test(s),
  },
  {
    id: 'denial',
    reason: 'A denial ("I never said that", "we didn\'t decide…", "that was never the plan") takes something back.',
    test: (s) =>
      /\b(?:I|we|you|they|he|she) (?:never|didn't|did not|haven't|have not|hadn't) (?:said|say|decided|decide|agreed|agree|promised|promise|planned|plan)\b/i.test(
        s,
      ) ||
      /\bnever (?:was|were) (?:the|a|our) (?:plan|goal|decision)\b/i.test(s) ||
      /\b(?:no|not a) (?:decision|plan) (?:yet|has been)\b/i.test(s),
  },
  {
    id: 'quoted',
    reason: 'Quoted or reported speech ("she said…", "…" in quotes) is someone else\'s words, not this project\'s state.',
    test: (s) =>
      /^\s*["“]/u.test(s) ||
      /["“][^"”]{8,}["”]/u.test(s) ||
      /\b(?:said|says|told (?:me|us|him|her|them)|wrote|claims|claimed|joked|quipped|mentioned that)\b/i.test(s) ||
      /\basked (?:whether|if|me|us|him|her|them|about|why|how|what|when|where|who)\b/i.test(s),
  },
  {
    id: 'past-plan',
    reason: 'A plan told as the past ("I was going to…", "we had planned to…") is not open.',
    test: (s) => /\b(?:was|were) going to\b|\bhad (?:planned|meant|wanted) to\b|\bused to\b/i.test(s),
  },
];

/** The id of the first screen a sentence falls under, or null when none does. */
export function screenedOut(sentence: string): string | null {
  return screens.find((screen) => screen.test(sentence))?.id ?? null;
}

/* -------------------------------------------------------------------- state */

export const stateRules: Rule[] = [
  pattern(
    'goal-statement',
    'state',
    'A sentence that names the goal ("our goal is…", "the aim is…") sets the goal.',
    /\b(?:our|the|my|this project's|the project's) (?:main |overall |big |real |new |primary )?(?:goal|aim|objective|mission) (?:for [^,]+ )?(?:is now|now is|is|remains|has become)\s+(?:to\s+)?(.+)/i,
    { field: 'goal' },
    [
      'Our goal is to ship the beta to ten pilot customers by March.',
      'The main objective is a checkout that works offline.',
      'Our new goal is to cut onboarding to five minutes.',
    ],
    [
      'Is our goal still the beta?',
      'If our goal is speed, we lose quality.',
      'She said the goal is unclear.',
      'I scored a goal at football on Sunday.',
    ],
  ),
  pattern(
    'goal-aim',
    'state',
    'Saying what the team aims for ("we\'re aiming to…") sets the goal.',
    /^(?:we(?:'re| are) aiming (?:to|for)|we aim to|the target is (?:to )?)\s*(.+)/i,
    { field: 'goal' },
    ['We are aiming to launch the mobile app before the spring fair.', 'The target is to halve the support backlog.'],
    ['We were aiming too high last year.', 'Maybe we are aiming to do too much.'],
  ),
  pattern(
    'focus-statement',
    'state',
    'A sentence that names the focus ("our focus is…", "we\'re focusing on…") sets the focus.',
    /\b(?:(?:our|the|my) (?:current |main |immediate )?focus(?: this week| this sprint| for now| right now| today| for [^,]{1,40}?)? (?:is|is now|now is|stays|remains)(?: on)?|(?:we(?:'re| are)|I(?:'m| am)) (?:now )?focus(?:s)?ing on|this (?:week|sprint) we focus on|for now we focus on)\s+(.+)/i,
    { field: 'focus' },
    [
      'Our focus this week is the payment flow.',
      "We're focusing on the onboarding emails.",
      'The current focus is fixing the flaky sync tests.',
    ],
    ['Are we focusing on the right thing?', 'I could not focus on anything yesterday.', 'He said our focus is wrong.'],
  ),
  pattern(
    'decision-decided',
    'state',
    'A decision the team took ("we decided to…", "we agreed on…", "we\'re going with…") is a decision.',
    /\b(?:we|I|the team|everyone) (?:have |has |finally |all )?(?:decided|agreed|settled|chose|opted)(?: (?:to|that|on|for))?\s+(.+)/i,
    { field: 'decision' },
    [
      'We decided to drop the annual plan and keep monthly billing only.',
      'The team agreed that Lena owns the release checklist.',
      'We settled on Postgres for the event store.',
    ],
    [
      'We never decided to drop the annual plan.',
      'Did we decide on the logo?',
      'If we decided to move, who would pack?',
      'He said we decided to wait.',
    ],
  ),
  pattern(
    'decision-going-with',
    'state',
    'Choosing one option ("we\'re going with…", "decision:") is a decision.',
    /^(?:decision|decided|resolution)\s*[:–—-]\s*(.+)|\b(?:we(?:'re| are)|we'll|we will) go(?:ing)? with\s+(.+)/i,
    { field: 'decision' },
    ["We're going with the blue landing page.", 'Decision: invoices go out on the first working day.'],
    ["We'll see whether we go with blue.", 'Maybe we are going with the red one.'],
  ),
  pattern(
    'next-step',
    'state',
    'A next step named as one ("next step:…", "the next step is…", "next up:…") is a next step.',
    /^(?:next steps?|next up|then next)\s*[:–—-]\s*(.+)|\bthe (?:next|following) step (?:is|will be)\s+(?:to\s+)?(.+)/i,
    { field: 'next' },
    [
      'Next step: draft the pricing page copy.',
      'The next step is to book the venue for the offsite.',
      'Next up: migrate the old invoices.',
    ],
    ['What is the next step?', 'The next step was a disaster last time.'],
  ),
  {
    id: 'blocked-on',
    structure: 'state',
    reason: 'Something the work waits for ("blocked on…", "waiting on…") is an open item.',
    match(sentence) {
      const found = /\b(blocked (?:on|by)|waiting (?:on|for)(?= (?:the|a|an|legal|approval|sign-?off)\b)|stuck on)\s+(.+)/i.exec(sentence);
      if (found === null) return null;
      const what = clause(found[2]!);
      return what.length < 3 ? null : { field: 'open', text: `${capital(found[1]!.toLowerCase())} ${what}` };
    },
    examples: [
      'We are blocked on the bank approving the merchant account.',
      'Still waiting on legal to review the contract.',
      'The release is blocked by the flaky login test.',
    ],
    counterExamples: ['Were we blocked on anything last week?', 'I waited for the bus for an hour.'],
  },
  pattern(
    'open-item',
    'state',
    'An item named as open ("open question:…", "open item:…", "todo:…", "still open:…") is an open item.',
    /^(?:open (?:question|item|issue|point)s?|todo|to-do|to do|still open|unresolved|outstanding)\s*[:–—-]\s*(.+)/i,
    { field: 'open' },
    [
      'Open question: who signs the supplier contract?',
      'TODO: rotate the staging database password.',
      'Still open: the refund policy for annual plans.',
    ],
    ['Todo lists make me anxious.', 'The shop was open late.'],
  ),
  pattern(
    'done-item',
    'state',
    'Work said to be finished ("done:…", "we finished…", "…is done") closes the open item it names.',
    /^(?:done|finished|completed|shipped|closed|fixed)\s*[:–—-]\s*(.+)|\b(?:we|I|the team) (?:have |has |just |finally )?(?:finished|completed|shipped|wrapped up|closed out|got done)\s+(.+)|^((?:(?!\b(?:until|when|before|after|if|unless|once)\b)[^,;]){3,60}?) (?:is|are|was|were) (?:now )?(?:done|finished|complete|completed|shipped|merged|live)\s*[.!]?$/i,
    { field: 'done' },
    ['Done: rotate the staging database password.', 'We finished the pricing page copy.', 'The merchant account is done.'],
    ['Are we done with the pricing page?', 'If we finished early, we could rest.', 'I never said the migration is done.'],
  ),
];

/* --------------------------------------------------------------- intentions */

export const intentionRules: Rule[] = [
  pattern(
    'promise-will',
    'intention',
    'A first-person promise or plan ("I\'ll…", "we will…", "I\'m going to…") is an intention.',
    /\b(?:I'll|I will|I'm going to|I am going to|I'm gonna|we'll|we will|we're going to|we are going to|I promise to|I promised to|I plan to|we plan to|I intend to|we intend to|I've got to|I'm planning to|we're planning to)\s+(?!see\b|think\b|never\b|not\b|probably\b|try\b)(.+)/i,
    {},
    [
      "I'll send the report to the landlord by Friday.",
      'We will publish the changelog on Monday.',
      "I'm going to call the insurer tomorrow morning.",
      "I promised to review Tom's pull request tonight.",
    ],
    [
      "We'll see how it goes.",
      "I'll think about it.",
      'I would call them if I had time.',
      'She said she will send it.',
      'I was going to call the insurer.',
      "I'll never understand that API.",
    ],
  ),
  pattern(
    'assigned-will',
    'intention',
    'In meeting notes, a named person who will do something by a day ("Tariq will send… by Friday") holds an intention.',
    /^(\p{Lu}\p{Ll}+(?: and \p{Lu}\p{Ll}+)? (?:will|is going to|promised to|has to|needs to) (?!be\b|probably\b|never\b|not\b).+\b(?:by|on|before|until|next|tomorrow|tonight|this|end of)\b.+)/u,
    {},
    ['Tariq will send the draft privacy notice to the lawyer by Friday.', 'Lena is going to book the venue before the end of the month.'],
    ['Tariq will be happy.', 'The app will open on Monday.', 'Lena will probably come on Friday.'],
  ),
  pattern(
    'remind-me',
    'intention',
    'Asking to be reminded ("remind me to…", "don\'t forget to…", "remember to…") records an intention.',
    /\b(?:remind (?:me|us) to|remind (?:me|us) (?:that|about)|don't forget to|do not forget to|don't let me forget to|remember to|note to self\s*[:–—-]?)\s*(.+)/i,
    {},
    [
      'Remind me to renew the domain before it expires on 3 December.',
      "Don't forget to water the office plants on Thursday.",
      'Note to self: order more label tape.',
    ],
    ['Do you remember to water the plants?', 'I remember the plants from last year.'],
  ),
  pattern(
    'need-to',
    'intention',
    'A stated need ("we need to…", "I have to…", "we must…") is a plan to act.',
    /\b(?:we|I) (?:still )?(?:need to|have to|must|should really|ought to|got to|gotta)\s+(?!be\b|have been\b)(.+)/i,
    {},
    [
      'We need to renew the SSL certificate before the end of the month.',
      'I have to file the VAT return by the 31st.',
      'We must email the pilot customers about the outage.',
    ],
    ['Do we need to renew it?', 'If we need to move, we will tell you.', 'He told me we need to hurry.', 'We never needed to renew it.'],
  ),
];

/* ------------------------------------------------------------------ lessons */

/** When a rule applies, from a clause in it ("when…", "before…", "on Fridays"). */
export function appliesWhenOf(text: string): string | null {
  const found =
    /\b((?:when|whenever|before|after|while|during|if|once|on (?:a |the )?(?:weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|holidays?|release days?)\b)[^,.;]*?)(?=,|\.|;|$| because\b| since\b| so that\b| as it\b)/i.exec(
      text,
    );
  return found ? clause(found[1]!) : null;
}

/** Why a rule holds, from a clause in it ("because…", "since…", "so that…"). */
export function whyOf(text: string): { text: string; why: string | null } {
  const found = /[,;]?\s+\b(?:because|since|as otherwise|so that|otherwise)\b\s+(.+)$/i.exec(text);
  if (found === null || found.index < 8) return { text, why: null };
  return { text: clause(text.slice(0, found.index)), why: clause(found[1]!) };
}

export const lessonRules: Rule[] = [
  pattern(
    'rule-always-never',
    'lesson',
    'An instruction that opens with always or never ("Never deploy on Fridays") is a rule.',
    /^(?:(?:always|never)(?!\s+(?:mind|again|a|an|the|ever|too|so|ok|okay)\b)|don't ever|do not ever|make sure (?:to|that|you)|be sure to|rule(?: of thumb)?\s*[:–—-])\s*(.+)/i,
    { lessonType: 'rule' },
    [
      'Never deploy on Fridays because nobody is around to fix it.',
      'Always tag the release before you publish the packages.',
      'Make sure to back up the database before a migration.',
      'Rule of thumb: one reviewer per pull request.',
    ],
    ['I never said that.', 'Never mind.', 'Always?', 'Never again, he said.', 'Always a pleasure to see you.'],
  ),
  pattern(
    'how-to',
    'lesson',
    'A recipe ("to deploy, first…", "how to…:", "the way to… is…") is a how-to.',
    /^(?:to (?!(?:be|me|you|us|him|her|them|my|your|our|this|that|date|begin|start|sum|summarise|summarize|clarify|recap|conclude)\b)(?:\w+)(?: [\w'-]+){0,6},\s*(?:first\s+)?\S+ \S+ \S+.*|how to (?:\w+)(?: [\w'-]+){0,6}\s*[:–—-]\s*.+|the (?:way|trick) to (?:\w+)(?: [\w'-]+){0,6} is (?:to )?.+)/i,
    { lessonType: 'how-to' },
    [
      'To deploy, first run the migrations and then restart the workers.',
      'How to rotate keys: create the new key, switch the apps, revoke the old one.',
      'The trick to fast builds is to cache the node modules.',
    ],
    ['To be honest, I forgot.', 'To me, it looks fine.', 'How to deploy?'],
    true,
  ),
  pattern(
    'lesson-learned',
    'lesson',
    'A lesson named as one ("lesson learned:…", "we learned that…", "next time,…", "in hindsight…") is a lesson.',
    /^(?:lessons? learned|lesson|takeaway|key takeaway|learning|TIL|retro)\s*[:–—-]\s*(.+)|\b(?:we|I) (?:have )?learned (?:that|the hard way that)\s+(.+)|^(?:next time|in hindsight|in future|in the future|going forward|from now on)\s*,\s*(?!when\b)(.+)|\bwe should have\s+(.+)/i,
    { lessonType: 'lesson' },
    [
      'Lesson learned: test the backup restore, not only the backup.',
      'We learned that customers read the pricing page on their phones.',
      'Next time, book the room two weeks ahead.',
      'In hindsight, we should have told support before the launch.',
    ],
    ['Did we learn anything?', 'Next time we talk about the budget, I will bring the numbers.', 'I learned to ski last winter.'],
  ),
];

/** Every sentence rule, in the order they are tried. */
export const allRules: Rule[] = [...lessonRules, ...stateRules, ...intentionRules];

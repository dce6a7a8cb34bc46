import type { MemoryKind } from './types.js';

/**
 * The kind of a fact, read from its final wording (third person, dates made absolute).
 * The first rule that matches decides, in this order:
 *
 * 1. plan: something the subject means or is due to do: "is going to", "is gonna", "plans
 *    to", "is planning", "intends to", "is about to", "can't wait to", "is looking forward
 *    to", "needs to", "has to", "scheduled", "appointment", "deadline", a person followed by
 *    "will"/"won't", or a date in the future of when it was said.
 * 2. pref: likes, dislikes, favourites and wants: "loves", "likes", "enjoys", "hates",
 *    "prefers", "favourite", "fan of", "is into", "dislikes", "can't stand", "adores",
 *    "wants", "wishes", "would love", "would like", "keen on", "passionate about", "fond of",
 *    "obsessed with".
 * 3. people: relationships and who someone is: a relation owned or counted ("Omar's
 *    sister", "has two kids", "her husband"), a relationship event ("married", "divorced",
 *    "dating", "engaged", "pregnant", "adopted", "broke up"), or identity ("<Name> is a
 *    nurse", "works as", "years old", "is from", "grew up in", "lives in", "was born").
 * 4. detail: everything else.
 *
 * Plans come first because a plan often involves a liking or a person ("Omar's sister
 * will visit next week" is something to be ready for); wants are preferences, not plans.
 */
export function classifyFact(text: string, options: { future?: boolean } = {}): MemoryKind {
  if (options.future === true || planPatterns.some((pattern) => pattern.test(text))) return 'plan';
  if (prefPattern.test(text)) return 'pref';
  if (peoplePatterns.some((pattern) => pattern.test(text))) return 'people';
  return 'detail';
}

const relations =
  '(?:mother|mom|mum|father|dad|parents?|sisters?|brothers?|siblings?|sons?|daughters?|kids?|children|child|baby|babies|husband|wife|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|friends?|best friend|bestie|cousins?|aunts?|uncles?|nieces?|nephews?|grandma|grandmother|grandpa|grandfather|grandparents?|grandchildren|grandkids|in-laws?|colleagues?|co-?workers?|boss|manager|mentor|neighbou?rs?|roommates?|classmates?|teammates?|stepmom|stepdad|stepson|stepdaughter|twins?|family)';

const planPatterns: RegExp[] = [
  /\b(?:is|are|am)\s+(?:\w+ly\s+|still\s+|also\s+|just\s+)?(?:going to|gonna|planning|about to|hoping to|aiming to|looking forward to|scheduled|due to|set to|supposed to)\b(?!\s+be\s+(?:so|really|very|super|great|fine|ok|okay|tough|hard|fun|amazing|awesome|lucky|good)\b)/i,
  /\b(?:plans?|planned|intends?|intending|aims?|hopes?|promised|promises|decided|needs?|has|have) to\b(?! (?:say|admit)\b)/i,
  /\bcan(?:'|’)?t wait to\b/i,
  /\b(?:scheduled|appointment|deadline|to-?do|booked|reservation)\b/i,
  new RegExp(
    `(?:^|[\\s,])(?:\\p{Lu}[\\p{L}'’-]*|he|she|they|team|${relations})\\s+(?:\\w+ly\\s+|also\\s+|still\\s+|soon\\s+)?(?:will|won(?:'|’)t|(?:'|’)ll)\\b(?!\\s+(?:be|have been)\\b)`,
    'u',
  ),
];

const prefPattern =
  /\b(?:loves|loved|(?:is|are|am) loving|love to|love (?:it|this|that|them|him|her|the way)|likes|liked|like to|would like|enjoys?|enjoyed|enjoying|hates?|hated|prefers?|preferred|favou?rites?|fan of|fans of|(?<!\b(?:the|all|of|my|his|her|their|with|much|a|lots of|so much|and|'s|’s)\s)love\b|is into|are into|was into|dislikes?|disliked|can(?:'|’)?t stand|adores?|adored|(?:wants?|wanted)(?! to (?:tell|let|share|ask|say|show|update|check|thank|know)\b)|wishes|wish|would love|would rather|'d rather|’d rather|keen on|passionate about|obsessed with|fond of|crazy about|in love with|a fan|not a fan|allergic to|vegan|vegetarian)\b|(?:n['’]t|\bnot|\bnever) (?:like|love|enjoy|want)\b/i;

const peoplePatterns: RegExp[] = [
  new RegExp(`(?:['’]s|\\b(?:his|her|their|whose))\\s+(?:\\w+\\s+)?(?!family\\b)${relations}\\b`, 'i'),
  new RegExp(
    `\\b(?:has|have|had)\\s+(?:a|an|one|two|three|four|five|six|\\d+|no|some|many|several|twin)\\s+(?:\\w+\\s+)?${relations}\\b`,
    'i',
  ),
  /\b(?:married|divorced|dating|engaged|widowed|pregnant|adopted|adopting|broke up|separated|newborn|gave birth)\b/i,
  /^(?:The user|(?:\p{Lu}[\p{L}'’-]*\s+){1,3})\s*(?:is|was)\s+(?:a|an)\s+/u,
  /\b(?:works as|worked as|works at|works for|years old|is from|are from|was from|grew up|lives in|lived in|was born|were born|name is|is called|identifies as|retired)\b/i,
];

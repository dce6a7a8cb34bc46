/** A sentence and where it sits in the text it was cut from (end exclusive). */
export interface Segment {
  text: string;
  start: number;
  end: number;
}

/**
 * Words that end in a dot without ending a sentence, even before a capital ("Dr. Smith",
 * "e.g. Paris"). Words like "etc." are left out on purpose: they often do end a sentence.
 */
const abbreviations = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'rev',
  'gen',
  'col',
  'capt',
  'lt',
  'sgt',
  'hon',
  'fr',
  'e.g',
  'i.e',
  'eg',
  'ie',
  'cf',
  'vs',
  'approx',
  'incl',
  'esp',
  'ca',
  'no',
  'nos',
  'vol',
  'fig',
  'dept',
  'est',
  'ft',
  'apt',
]);

/** List markers at the start of a line (one or more: "- [ ] "): they belong to the layout, not to the sentence. */
const leadingMarker = /^(?:(?:[-*•·‣◦–—>]+|#{1,6}|\d{1,3}[.)]|\(\d{1,3}\)|[a-zA-Z]\)|\[[ xX]\])\s+)+/;

const emojiRun = /^[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]+/u;

const closing = `"')]}’”»`;

/**
 * Splits text into sentences. A sentence ends at . ! ? (and closing quotes or brackets)
 * followed by white space and something that can start a sentence, and at a line break,
 * unless the next line starts in lower case (a wrapped line carries on the sentence).
 * Offsets point into `text`, and each segment's text is exactly text.slice(start, end),
 * trimmed of white space and list markers.
 */
export function splitSentences(text: string): Segment[] {
  const segments: Segment[] = [];
  let sentenceStart = 0;
  const cut = (end: number, next: number): void => {
    pushSegment(segments, text, sentenceStart, end);
    sentenceStart = next;
  };
  let index = 0;
  while (index < text.length) {
    const character = text.charAt(index);
    if (character === '\n') {
      const lineStart = nextNonSpace(text, index + 1);
      const startsLower = lineStart < text.length && /\p{Ll}/u.test(text.charAt(lineStart));
      const blankLine = /\n[^\S\n]*\n/.test(text.slice(index, lineStart + 1));
      if (!startsLower || blankLine) cut(index, index + 1);
      index++;
      continue;
    }
    if (character.charCodeAt(0) >= 0x2000 && character !== '…') {
      // In chat an emoji often ends a sentence: "Done 💪 I booked…".
      const emoji = emojiRun.exec(text.slice(index, index + 24));
      if (emoji !== null) {
        const end = index + emoji[0].length;
        const next = nextNonSpace(text, end);
        if (next > end && (next >= text.length || /[\p{Lu}\p{N}]/u.test(text.charAt(next)))) cut(end, end);
        index = end;
        continue;
      }
    }
    if (character === '.' || character === '!' || character === '?' || character === '…') {
      let end = index + 1;
      while (end < text.length && '.!?…'.includes(text.charAt(end))) end++;
      while (end < text.length && closing.includes(text.charAt(end))) end++;
      if (end < text.length && !/\s/.test(text.charAt(end))) {
        index = end;
        continue;
      }
      const next = nextNonSpace(text, end);
      if (endsSentence(text, sentenceStart, index, end, next)) cut(end, end);
      index = end;
      continue;
    }
    index++;
  }
  pushSegment(segments, text, sentenceStart, text.length);
  return segments;
}

function endsSentence(text: string, sentenceStart: number, punctuation: number, end: number, next: number): boolean {
  if (next >= text.length) return true;
  const marks = text.slice(punctuation, end);
  const following = text.charAt(next);
  // After ! or ? chat text often carries on in lower case ("Wow! that's great"); after a dot
  // a lower-case word means an abbreviation or an ellipsis inside a sentence.
  if (/\p{Ll}/u.test(following)) return !marks.startsWith('.') && !marks.startsWith('…');
  if (marks === '.') {
    const word = wordBefore(text, punctuation).toLowerCase();
    if (abbreviations.has(word)) return false;
    // An initial ("J. K. Rowling"), initials written together ("W.E.B. Okafor"),
    // or a list number at the start of a line ("1. Milk").
    if (/^(?:\p{Lu}\.)*\p{Lu}$/u.test(wordBefore(text, punctuation))) return false;
    if (/^\d{1,3}$/.test(word) && text.slice(sentenceStart, punctuation).trim() === word) return false;
  }
  return true;
}

function wordBefore(text: string, position: number): string {
  let start = position;
  while (start > 0 && /[\p{L}\p{N}.]/u.test(text.charAt(start - 1))) start--;
  return text.slice(start, position).replace(/^\.+/, '');
}

function nextNonSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text.charAt(index))) index++;
  return index;
}

function pushSegment(segments: Segment[], text: string, from: number, to: number): void {
  let start = from;
  let end = to;
  while (start < end && /\s/.test(text.charAt(start))) start++;
  while (end > start && /\s/.test(text.charAt(end - 1))) end--;
  const marker = leadingMarker.exec(text.slice(start, end));
  if (marker !== null && marker[0].length < end - start) start += marker[0].length;
  // A piece with no letter or digit (a stray bullet, an emoji) is not a sentence.
  if (!/[\p{L}\p{N}]/u.test(text.slice(start, end))) return;
  segments.push({ text: text.slice(start, end), start, end });
}

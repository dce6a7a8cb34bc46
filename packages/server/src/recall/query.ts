/** Words that carry no meaning for recall, beyond Postgres's own English stop words. */
const QUESTION_WORDS = new Set([
  'what', 'when', 'where', 'who', 'whom', 'whose', 'which', 'why', 'how', 'did', 'does', 'do', 'is', 'are', 'was',
  'were', 'the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'me', 'tell', 'about', 'know', 'you', 'your',
  'has', 'have', 'had', 'can', 'could', 'would', 'should', 'will', 'with', 'at', 'by', 'from', 'it', 'its', 'that',
  'this', 'there', 'any', 'some', 'kind', 'kinds', 'type', 'types', 's', 'likely', 'probably', 'might', 'been', 'be', 'being',
  'get', 'got', 'go', 'went', 'one', 'ones', 'thing', 'things', 'they', 'their', 'he', 'she', 'his', 'her', 'him', 'them',
  'we', 'our', 'us', 'i', 'my', 'was', 'yet', 'ever', 'so', 'not', 'considered', 'think', 'say', 'said', 'mention', 'mentioned',
]);

/** Whether the question asks for a time ("When did…", "What year…", "How long ago…"). */
export function asksWhen(question: string): boolean {
  return /\b(?:when|what (?:year|month|day|date|time)|which (?:year|month|day|date)|how long ago|since when)\b/i.test(question);
}

/** The meaningful words of a question, lower-cased, in order, without repeats. */
export function queryTerms(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => !QUESTION_WORDS.has(word) && word.length <= 60))];
}


/** Capitalised words of the question: names the asker expects the memory to be about. */
export function questionNames(question: string): string[] {
  const names = question.match(/\b\p{Lu}[\p{L}'’-]+/gu) ?? [];
  return [...new Set(names.map((name) => name.replace(/['’]s$/u, '').toLowerCase()))].filter(
    (name) => !QUESTION_WORDS.has(name),
  );
}

import { stemmer } from 'stemmer';

/** English stop words left out of the BM25 baseline (a common short list). */
const STOP = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with ' +
    'i me my we our you your he him his she her it its them what which who whom when where why how did do does done have has had been ' +
    'were am so just can could would should about from up out very too also some any all'
  ).split(' '),
);

const terms = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP.has(word)).map((word) => stemmer(word));

/** Plain BM25 (k1 1.2, b 0.75) over raw turns: returns a function ranking turn ids for a question. */
export function bm25Ranking(documents: { id: string; text: string }[]): (question: string, limit: number) => string[] {
  const k1 = 1.2;
  const b = 0.75;
  const docs = documents.map((document) => {
    const frequencies = new Map<string, number>();
    const words = terms(document.text);
    for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    return { id: document.id, frequencies, length: words.length };
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const documentFrequency = new Map<string, number>();
  for (const doc of docs) for (const word of doc.frequencies.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  return (question, limit) => {
    const query = [...new Set(terms(question))];
    const scored = docs.map((doc) => {
      let score = 0;
      for (const word of query) {
        const frequency = doc.frequencies.get(word);
        if (!frequency) continue;
        const n = documentFrequency.get(word)!;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * doc.length) / averageLength));
      }
      return { id: doc.id, score };
    });
    return scored
      .filter((entry) => entry.score > 0)
      .sort((left, right) => right.score - left.score)
      .slice(0, limit)
      .map((entry) => entry.id);
  };
}

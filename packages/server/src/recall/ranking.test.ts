import { describe, expect, it } from 'vitest';
import { columnsOf } from '../store/hit-columns.js';
import type { LexemeHit } from '../store/memory-repository.js';
import { answerOffline } from './ask.js';
import type { QueryWord, Recalled, Scored } from './search.js';
import { aboveFloor, bearsOn, diversify, listed, rankingOf, rerank, scoreHits, spanScore } from './search.js';

/**
 * The golden ranking: a fixture space of invented memories, built as the hits recall scores
 * (levels per lexeme: 3 the fact or its names, 2 the rest of its message, 1 the message it
 * answers), and questions whose expected order is decided by the weights of recall/weights.ts.
 * Each pair below is balanced so that moving the weight it names by 30% one way swaps it; the
 * golden scores pin the rest. The numbers here are written out, never read from weights.ts, so a
 * changed weight shows as a failing test (`npm run bench:rules` checks that every one does).
 */

const DAY = 86_400_000;
const SAID = Date.parse('2026-11-10');
/** The week asked about ("last week", asked on 22 November 2026). */
const WEEK = { start: Date.parse('2026-11-09'), end: Date.parse('2026-11-16'), lexemes: [] as number[] };

interface Memory {
  id: number;
  /** The invented memory the hit stands for. */
  text: string;
  levels: number[];
  about?: string[];
  dated?: boolean;
  reported?: boolean;
  passage?: string | null;
  said?: number;
  created?: number;
}

const hitOf = (memory: Memory): LexemeHit => ({
  id: memory.id,
  kind: 'detail',
  about: memory.about ?? [],
  passage: memory.passage === undefined ? `source:${memory.id}` : memory.passage,
  slot: null,
  dated: memory.dated ?? false,
  reported: memory.reported ?? false,
  created_at: memory.created ?? 1_000,
  said: memory.said ?? SAID - 30 * DAY,
  levels: memory.levels,
});

const word = (own: number[], extra: Partial<QueryWord> = {}): QueryWord => ({
  own,
  related: [],
  broader: [],
  relatedBroader: [],
  name: false,
  ...extra,
});

interface Question {
  /** The invented question. */
  text: string;
  words: QueryWord[];
  lexemes: number;
  names?: string[];
  when?: boolean;
  time?: boolean;
}

/** Scores the fixture's memories for a question: [id, score rounded to 4 places] best first. */
function rank(question: Question, memories: Memory[], known: (number | undefined)[] = []): [number, number][] {
  const scored = listed(
    scoreHits(
      columnsOf(memories.map(hitOf)),
      10,
      question.words,
      question.lexemes,
      { names: question.names ?? [], when: question.when ?? false, time: question.time ? WEEK : undefined },
      known,
    ),
  );
  return scored.map((item) => [item.hit.id, Math.round(item.score * 10_000) / 10_000]);
}
const order = (ranked: [number, number][]) => ranked.map(([id]) => id);

// One question word, lexeme 0: "pottery". Every pair is two memories that say it at different levels with different cues.
const pottery: Question = { text: 'What pottery did Ana make last week?', words: [word([0])], lexemes: 1, names: ['ana'], time: true };
const potteryWhen: Question = { ...pottery, text: 'When did Ana make pottery last week?', when: true };
const inWeek = SAID;

describe('golden ranking: each weight decides a pair', () => {
  it('coverage against the cues: a better match wins unless the cues outweigh it (COVERAGE_WEIGHT, level weights)', () => {
    // A: "Ana glazed two bowls." in a message about pottery (level 2). B: the message before was about pottery (level 1), about Ana, said that week.
    const a = { id: 1, text: 'Ana glazed two bowls.', levels: [2] };
    const b = { id: 2, text: 'Ana spent the week at the studio.', levels: [1], about: ['Ana'], said: inWeek };
    expect(order(rank(pottery, [a, b]))).toEqual([1, 2]);
    // With a date, asked when, B's cues outweigh A's better match.
    const bDated = { ...b, dated: true };
    expect(order(rank(potteryWhen, [a, bDated]))).toEqual([2, 1]);
  });

  it('a word in the fact beats the same word in its message, unless the cues outweigh it (OWN_LEVEL_WEIGHT)', () => {
    const own = { id: 3, text: 'Ana made a pottery vase.', levels: [3] };
    const message = { id: 4, text: 'Ana fired the kiln that week.', levels: [2], about: ['Ana'], said: inWeek };
    expect(order(rank(pottery, [own, message]))).toEqual([3, 4]);
    expect(order(rank(potteryWhen, [own, { ...message, dated: true }]))).toEqual([4, 3]);
  });

  it('naming the person asked about lifts a remark above a plain memory just enough (NAME_CUE, REPORTED_WEIGHT)', () => {
    const question: Question = { ...pottery, time: false };
    const plainBefore = { id: 5, text: 'Ben likes clay.', levels: [1] };
    const remarkBefore = { id: 6, text: 'Ana said it was relaxing.', levels: [1], about: ['Ana'], reported: true };
    expect(order(rank(question, [plainBefore, remarkBefore]))).toEqual([6, 5]);
    const plainMessage = { id: 7, text: 'Ben threw a cup.', levels: [2] };
    const remarkMessage = { id: 8, text: 'Ana said the cup cracked.', levels: [2], about: ['Ana'], reported: true };
    expect(order(rank(question, [plainMessage, remarkMessage]))).toEqual([7, 8]);
  });

  it("another person's memory gives way to the asked person's, unless it matches far better (OTHER_SUBJECT_WEIGHT)", () => {
    const question: Question = { ...pottery, time: false };
    // Ben says "pottery" himself; Ana's memory only in its message: the better match still wins, by less.
    const bens = { id: 30, text: 'Ben glazed a pottery bowl.', levels: [3], about: ['Ben'] };
    const anasMessage = { id: 31, text: 'Ana fired the kiln.', levels: [2], about: ['Ana'] };
    expect(order(rank(question, [bens, anasMessage]))).toEqual([30, 31]);
    // Both say it; Ana's is a remark (REPORTED_WEIGHT): Ana's still comes first, as she is the one asked about.
    const anasRemark = { id: 32, text: 'Ana said the pottery class was fun.', levels: [3], about: ['Ana'], reported: true };
    expect(order(rank(question, [bens, anasRemark]))).toEqual([32, 30]);
  });

  it("a memory about no one, or a question naming nobody's subject, is left as it is (OTHER_SUBJECT_WEIGHT)", () => {
    // Ben's memory is the newer (RECENCY_WEIGHT): it wins over a memory about no one unless it gives way.
    const bens = { id: 33, text: 'Ben glazed a pottery bowl.', levels: [3], about: ['Ben'], created: 2_000 };
    const nobodys = { id: 34, text: 'The pottery kiln is hot.', levels: [3], about: [], created: 1_000 };
    const anas = { id: 35, text: 'Ana likes the studio.', levels: [0], about: ['Ana'], created: 1_500 };
    // "Ana" is the subject of a memory found: Ben's gives way, the one about no one does not.
    expect(order(rank({ ...pottery, time: false }, [bens, nobodys, anas])).slice(0, 2)).toEqual([34, 33]);
    // "Cal" is nobody's subject: no memory gives way.
    expect(order(rank({ ...pottery, time: false, names: ['cal'] }, [bens, nobodys, anas])).slice(0, 2)).toEqual([33, 34]);
  });

  it('a dated memory, asked when, weighs as much as naming the person asked about (DATE_CUE)', () => {
    // Both say "pottery" in their message; one is about Ana, the other dated. Which is newer (of
    // the three, RECENCY_WEIGHT × 0.5 or × 1) decides: DATE_CUE 30% lower or higher swaps a pair.
    const oldest = { id: 9, text: 'Cal swept the yard.', levels: [0], created: 1_000 };
    const named = (created: number) => ({ id: 10, text: 'Ana threw a cup.', levels: [2], about: ['Ana'], created });
    const dated = (created: number) => ({ id: 11, text: 'The cup cracked in May 2026.', levels: [2], dated: true, created });
    expect(order(rank(potteryWhen, [oldest, named(1_500), dated(2_000)])).slice(0, 2)).toEqual([11, 10]);
    expect(order(rank(potteryWhen, [oldest, named(2_000), dated(1_500)])).slice(0, 2)).toEqual([10, 11]);
  });

  it('said in the week asked about lifts a weaker match just enough (TIME_CUE)', () => {
    const message = { id: 13, text: 'Ana bought a wheel.', levels: [2] };
    const before = { id: 14, text: 'Ana cleaned the studio that week.', levels: [1], about: ['Ana'], said: inWeek, dated: true };
    expect(order(rank(potteryWhen, [message, before]))).toEqual([14, 13]);
    const plain = { id: 15, text: 'Ana made a pottery vase.', levels: [3] };
    const week = { id: 16, text: 'Ana fired the kiln that week.', levels: [2], said: inWeek };
    expect(order(rank({ ...pottery, names: [] }, [plain, week]))).toEqual([15, 16]);
  });

  it('the newer of two memories is lifted, by less than a cue (RECENCY_WEIGHT)', () => {
    const question: Question = { ...pottery, time: false, names: [] };
    const old = { id: 17, text: 'Ana made a pottery vase.', levels: [3], created: 1_000 };
    const recent = { id: 18, text: 'Ana made a pottery bowl.', levels: [3], created: 2_000 };
    expect(rank(question, [old, recent])).toEqual([
      [18, 0.82],
      [17, 0.8],
    ]);
  });

  it('a synonym counts half the word: above the message before, below it with the cues (RELATED_WEIGHT)', () => {
    // Lexeme 0 "pottery", lexeme 1 "ceramics" (related); the related lexeme is as rare as the word.
    const question: Question = {
      text: 'What pottery did Ana make?',
      words: [word([0], { related: [1] })],
      lexemes: 2,
      names: ['ana'],
      when: true,
    };
    const synonym = { id: 19, text: 'Ana sells ceramics.', levels: [0, 3] };
    const before = { id: 20, text: 'Ana answered about her week.', levels: [1, 0] };
    const beforeCued = { id: 21, text: 'Ana answered about May 2026.', levels: [1, 0], about: ['Ana'], dated: true };
    expect(order(rank(question, [synonym, before]))).toEqual([19, 20]);
    expect(order(rank(question, [synonym, beforeCued]))).toEqual([21, 19]);
  });

  it('a memory naming a kind of what is asked counts a quarter (BROADER_WEIGHT)', () => {
    // Lexeme 0 "craft", lexeme 1 "^craft" (a memory saying "pottery", a kind of craft).
    const question: Question = {
      text: 'What craft did Ana take up last week?',
      words: [word([0], { broader: [1] })],
      lexemes: 2,
      names: ['ana'],
      time: true,
      when: true,
    };
    const kind = { id: 22, text: 'Ana took up pottery.', levels: [0, 3] };
    const week = { id: 23, text: 'Ana was busy that week.', levels: [0, 0], said: inWeek };
    const weekCued = { id: 24, text: 'Ana was busy in May 2026.', levels: [0, 0], about: ['Ana'], said: inWeek, dated: true };
    // "craft" is said by one memory of the space (not these), as rare as "^craft".
    expect(order(rank(question, [kind, week], [1]))).toEqual([22, 23]);
    expect(order(rank(question, [kind, weekCued], [1]))).toEqual([24, 22]);
  });

  it('a question word nothing stored says weighs one and a half of the rarest (UNSEEN_WEIGHT)', () => {
    // "pottery" (lexeme 0, in one memory) and "kintsugi" (lexeme 1, in none).
    const question: Question = { text: 'Did Ana try kintsugi pottery?', words: [word([0]), word([1])], lexemes: 2 };
    const [first] = rank(question, [{ id: 25, text: 'Ana made a pottery vase.', levels: [3, 0] }]);
    expect(first?.[1]).toBeCloseTo(0.2605, 4);
  });

  it('golden scores of the fixture space', () => {
    const memories: Memory[] = [
      { id: 1, text: 'Ana glazed two bowls.', levels: [2], created: 3_000 },
      { id: 2, text: 'Ana spent the week at the studio.', levels: [1], about: ['Ana'], said: inWeek, created: 2_000 },
      { id: 3, text: 'Ana made a pottery vase.', levels: [3], created: 1_000 },
      { id: 4, text: 'Ana said the vase cracked in May 2026.', levels: [3], reported: true, dated: true, created: 1_500 },
    ];
    // Asked when, the dated remark (4) keeps all its score: its date is the answer.
    expect(rank(potteryWhen, memories)).toEqual([
      [4, 0.855],
      [3, 0.8],
      [1, 0.58],
      [2, 0.53],
    ]);
  });
});

const scoredOf = (id: number, score: number, passage: string | null = `source:${id}`, direct = 0): Scored => ({
  hit: hitOf({ id, text: '', levels: [], passage }),
  score,
  direct,
});

describe('golden ranking: after scoring', () => {
  it("a message's further facts give way to other messages' facts, by half each (SAME_PASSAGE)", () => {
    const ranking = rankingOf([
      scoredOf(1, 0.8, 'chat:1'),
      scoredOf(2, 0.8, 'chat:1'),
      scoredOf(3, 0.8, 'chat:1'),
      scoredOf(4, 0.45, 'chat:2'),
      scoredOf(5, 0.35, 'chat:3'),
    ]);
    diversify(ranking);
    const scored = listed(ranking);
    expect(scored.map((item) => item.hit.id)).toEqual([1, 4, 2, 5, 3]);
    expect(scored.map((item) => item.score)).toEqual([0.8, 0.45, 0.4, 0.35, 0.2]);
  });

  it('leaves memories alone outside a conversation (no passage) as they are, however many', () => {
    const ranking = rankingOf([scoredOf(1, 0.8, null), scoredOf(2, 0.7, null), scoredOf(3, 0.6, 'chat:1'), scoredOf(4, 0.5, 'chat:1')]);
    diversify(ranking);
    expect(listed(ranking).map((item) => [item.hit.id, item.score])).toEqual([
      [1, 0.8],
      [2, 0.7],
      [3, 0.6],
      [4, 0.25],
    ]);
  });

  it('tells passages apart by source and message index as the copy of a space keeps them', () => {
    // The copy keeps "chat:1" as the text "chat" with the index 1; "chat" alone (index -1) is another passage.
    const ranking = rankingOf([scoredOf(1, 0.8), scoredOf(2, 0.7), scoredOf(3, 0.6), scoredOf(4, 0.5), scoredOf(5, 0.45)]);
    const hits = ranking.hits as unknown as { passage: Int32Array; passageIndex: Int32Array; texts: string[] };
    hits.texts.push('chat');
    const chat = hits.texts.length - 1;
    hits.passage.set([chat, chat, chat, chat, chat]);
    hits.passageIndex.set([1, 2, 1, -1, -1]);
    expect(listed(ranking).map((item) => item.hit.passage)).toEqual(['chat:1', 'chat:2', 'chat:1', 'chat', 'chat']);
    diversify(ranking);
    expect(listed(ranking).map((item) => [item.hit.id, item.score])).toEqual([
      [1, 0.8],
      [2, 0.7],
      [4, 0.5],
      [3, 0.3],
      [5, 0.225],
    ]);
  });

  it('gives the order a full sort by score and id would, for many memories of a few messages', () => {
    // A fixed pseudo-random fill: scores on a coarse grid (ties broken by id), passages from 30 messages.
    let seed = 3;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const byScore = (left: Scored, right: Scored) => right.score - left.score || right.hit.id - left.hit.id;
    for (const sorted of [true, false]) {
      const scored = Array.from({ length: 2_000 }, (_, index) =>
        scoredOf(index + 1, Math.round(next() * 40) / 40, next() < 0.2 ? null : `chat:${Math.floor(next() * 30)}`),
      );
      if (sorted) scored.sort(byScore);
      // What diversify does, spelled out: each further fact of a message listed gives way by half, then all are sorted.
      const seen = new Map<string, number>();
      const expected = scored
        .map((item) => {
          // A memory alone (no passage) shares its context with none.
          const count = item.hit.passage === null ? 0 : (seen.get(item.hit.passage) ?? 0);
          if (item.hit.passage !== null) seen.set(item.hit.passage, count + 1);
          return { id: item.hit.id, score: item.score * 0.5 ** count };
        })
        .sort((left, right) => right.score - left.score || right.id - left.id);
      const ranking = rankingOf(scored);
      diversify(ranking);
      expect(listed(ranking).map((item) => [item.hit.id, item.score])).toEqual(expected.map((item) => [item.id, item.score]));
    }
  });

  it("Postgres's rank reorders the best few by up to a tenth (RANK_WEIGHT)", () => {
    const close = rankingOf([scoredOf(1, 0.5), scoredOf(2, 0.58)]);
    rerank(close, new Map([[1, 0.5]]));
    expect(listed(close).map((item) => item.score)).toEqual([0.6, 0.58]);
    const far = rankingOf([scoredOf(3, 0.5), scoredOf(4, 0.62)]);
    rerank(far, new Map([[3, 0.9]]));
    const [first, second] = listed(far);
    expect(first!.score).toBeLessThan(second!.score);
  });

  it('drops memories below the floor, and past the fiftieth those far below the best (FLOOR, RELATIVE_FLOOR)', () => {
    const few = rankingOf([scoredOf(1, 0.1), scoredOf(2, 0.09), scoredOf(3, 0.07)]);
    expect(aboveFloor(few)).toBe(2);
    expect(listed(few).map((item) => item.hit.id)).toEqual([1, 2]);
    const many = rankingOf([
      scoredOf(1, 1),
      ...Array.from({ length: 49 }, (_, index) => scoredOf(index + 2, 0.5)),
      scoredOf(51, 0.3),
      scoredOf(52, 0.2),
    ]);
    aboveFloor(many);
    expect(
      listed(many)
        .map((item) => item.hit.id)
        .slice(-2),
    ).toEqual([50, 51]);
  });

  it('judges a question known when a best memory says 22% of it in its own words (KNOWN_THRESHOLD)', () => {
    const words = [word([0])];
    expect(bearsOn(rankingOf([scoredOf(1, 0.5, 'a', 0.2)]), words, [])).toBe(false);
    expect(bearsOn(rankingOf([scoredOf(1, 0.5, 'a', 0.25)]), words, [])).toBe(true);
  });

  it('weighs an unseen thing the question asks about heavily, an unseen way of asking lightly (UNSEEN_THING_WEIGHT, UNSEEN_MANNER_WEIGHT)', () => {
    // "Where does Ana keep her kayak?" against "Ana keeps her bike in the shed." (lexeme 0 "keep"
    // in one memory of ten); the judged share of the question the memory says itself.
    const direct = (part: QueryWord['part']) =>
      listed(
        scoreHits(
          columnsOf([hitOf({ id: 1, text: 'Ana keeps her bike in the shed.', levels: [3, 0] })]),
          10,
          [word([0]), word([1], { part })],
          2,
          {
            names: [],
            when: false,
          },
        ),
      )[0]!.direct;
    // "kayak", a thing never stored: 2.5 times the rarest word's weight.
    expect(direct('thing')).toBeCloseTo(0.205, 3);
    // "lately" in "What has Ana kept lately?", a way of asking: 0.3 times it.
    expect(direct('manner')).toBeCloseTo(0.6824, 3);
  });

  it('scores a question about a time alone by whether the memory was said then (SAID_IN_SPAN, MENTIONS_SPAN)', () => {
    expect(spanScore(true)).toBe(0.8);
    expect(spanScore(false)).toBe(0.6);
  });

  it('answers from the memories within a tenth of the best (SUPPORT_SHARE)', () => {
    const row = (id: number, text: string) =>
      ({ id, text, source_id: `source-${id}`, message_index: 0, slot: null }) as unknown as Recalled['row'];
    const recalled = (second: number): Recalled[] => [
      { row: row(1, 'Ana made a pottery vase.'), score: 1 },
      { row: row(2, 'Ana glazed a bowl.'), score: second },
    ];
    expect(answerOffline(recalled(0.95), false, 'What did Ana make?').message).toMatch(/^Answered from 2 memories/);
    expect(answerOffline(recalled(0.87), false, 'What did Ana make?').message).toMatch(/^Answered from 1 memory/);
  });
});

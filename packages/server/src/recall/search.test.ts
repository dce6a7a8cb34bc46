import { describe, expect, it } from 'vitest';
import { columnsOf } from '../store/hit-columns.js';
import type { LexemeHit } from '../store/memory-repository.js';
import { COVERED_SHARE, denseCue } from './dense.js';
import { lexemeHit } from './lexeme-hit.fixture.js';
import { neighbourWords } from './neighbours.js';
import { asksView, asksWhen, queryTerms, questionNames, questionTime } from './query.js';
import type { QueryWord } from './search.js';
import {
  addDense,
  bearingPlaces,
  bearsOn,
  isSubjectNamed,
  judge,
  listed,
  partOf,
  queryWordsOf,
  questionParts,
  rankingOf,
  relatedOfTerms,
  saysAboutNamed,
  scoreHits,
  timeWordsOf,
} from './search.js';
import { KNOWN_THRESHOLD } from './weights.js';

const hit = lexemeHit;
/** Scores hits (as the columns a search gives) and lists them as objects, best first. */
const scoreList = (hits: LexemeHit[], ...rest: Parameters<typeof scoreHits> extends [unknown, ...infer Rest] ? Rest : never) =>
  listed(scoreHits(columnsOf(hits), ...rest));
const word = (own: number[], related: number[] = [], broader: number[] = []) => ({
  own,
  related,
  broader,
  relatedBroader: [],
  name: false,
});

describe('scoreHits', () => {
  it('adds how alike a memory and the question are as word vectors, never to the judgement', () => {
    // Both say the question's one word alike; the first is about what the question asks, by its vector.
    // Both say the question's first word and not its second (in no memory); a third says both.
    const hits = [hit(1, [3, 0]), hit(2, [3, 0]), hit(3, [3, 3], { created_at: 0 })];
    const ranking = scoreHits(columnsOf(hits), 10, [word([0]), word([1])], 2, { names: [], when: false });
    const before = Float64Array.from(ranking.score);
    const asked: number[][] = [];
    addDense(ranking, (places, count) => {
      const ids = Array.from(places.subarray(0, count), (place) => ranking.hits.id[place]!);
      asked.push(ids);
      return Float32Array.from(ids, (id) => (id === 2 ? 0.1 : 0.8));
    });
    const scored = listed(ranking);
    expect(scored.map((item) => item.hit.id)).toEqual([3, 1, 2]);
    // For what the question's words leave uncovered: the memory saying them all gains only COVERED_SHARE of it.
    const uncovered = 1 - ranking.coverage![0]!;
    expect(uncovered).toBeGreaterThan(0.2);
    expect(ranking.score[0]! - before[0]!).toBeCloseTo(uncovered * denseCue(0.8), 6);
    expect(ranking.score[2]! - before[2]!).toBeCloseTo(COVERED_SHARE * denseCue(0.8), 6);
    expect(ranking.score[1]!).toBe(before[1]!);
    expect(scored[1]!.direct).toBe(scored[2]!.direct);
    // Without vectors the later memory is first (ties go to the higher id).
    expect(scoreList(hits, 10, [word([0]), word([1])], 2, { names: [], when: false }).map((item) => item.hit.id)).toEqual([3, 2, 1]);
    expect(asked).toEqual([[3, 2, 1]]);
  });

  it("sets apart memories that all say the question's words by how alike each is to it", () => {
    // "What has Ines knitted?": "Ines shared a photo of a knitted fox hat." (1, older) and "Ines
    // had no time for knitting." (2, newer) both say it; the first is the more alike.
    const hits = [hit(1, [3], { created_at: 1_000 }), hit(2, [3], { created_at: 2_000 })];
    const ranking = scoreHits(columnsOf(hits), 50, [word([0])], 1, { names: [], when: false });
    expect(listed(ranking).map((item) => item.hit.id)).toEqual([2, 1]);
    addDense(ranking, (places) => Float32Array.from(places, (place) => (ranking.hits.id[place] === 1 ? 0.8 : 0.3)));
    expect(listed(ranking).map((item) => item.hit.id)).toEqual([1, 2]);
  });

  it("lifts a memory whose subject is the person asked about above another's remark naming them", () => {
    // "What does Ines grow?": "Ines grows basil on the balcony." (1, older) against "Tomas said Ines's
    // basil smells lovely." (2, newer), both saying "grow"'s lexeme in their own words.
    const hits = [hit(1, [3, 3], { about: ['Ines'], created_at: 1_000 }), hit(2, [3, 3], { about: ['Tomas', 'Ines'], created_at: 2_000 })];
    const order = scoreList(hits, 50, [word([0]), { ...word([1]), name: true }], 2, { names: ['ines'], when: false });
    expect(order.map((item) => item.hit.id)).toEqual([1, 2]);
    expect(isSubjectNamed(['Tomas', 'Ines'], ['ines'])).toBe(false);
    expect(isSubjectNamed(['Ines Ortega', 'Tomas'], ['ines'])).toBe(true);
    expect(isSubjectNamed([], ['ines'])).toBe(false);
  });

  it('compares only the memories that could reach the best few with the dense cue', () => {
    // 70 memories saying the rare word, 30 only a word every memory says: far below, never compared.
    const hits = [
      ...Array.from({ length: 70 }, (_, index) => hit(index + 1, [3, 3])),
      ...Array.from({ length: 30 }, (_, index) => hit(index + 71, [3, 0])),
    ];
    const ranking = scoreHits(columnsOf(hits), 1_000, [word([0]), word([1])], 2, { names: [], when: false });
    let compared = 0;
    addDense(ranking, (_places, count) => {
      compared = count;
      return new Float32Array(count);
    });
    expect(compared).toBe(70);
  });

  it('weights a rare word above a word most memories share', () => {
    // lexeme 0 ("priya") is in every memory; lexeme 1 ("adoption") in one.
    const hits = [hit(1, [3, 0]), hit(2, [0, 3]), hit(3, [3, 0]), hit(4, [3, 0])];
    const [best] = scoreList(hits, 4, [word([0]), word([1])], 2, { names: [], when: false });
    expect(best?.hit.id).toBe(2);
  });

  it("weighs a speaker's remark about something else a little below a memory saying the same", () => {
    const [first, second] = scoreList([hit(1, [3], { reported: true }), hit(2, [3])], 10, [word([0])], 1, { names: [], when: false });
    expect(first?.hit.id).toBe(2);
    expect(second?.score).toBeCloseTo(first!.score * 0.9, 6);
  });

  it("keeps all of a remark's score when the question asks what someone says, thinks or feels", () => {
    const [first, second] = scoreList([hit(1, [3], { reported: true }), hit(2, [3])], 10, [word([0])], 1, {
      names: [],
      when: false,
      view: true,
    });
    expect(second?.score).toBeCloseTo(first!.score, 6);
  });

  it("keeps all of a dated remark's score when the question asks when", () => {
    const hits = [hit(1, [3], { reported: true, dated: true }), hit(2, [3], { dated: true })];
    const [first, second] = scoreList(hits, 10, [word([0])], 1, { names: [], when: true });
    expect(second?.score).toBeCloseTo(first!.score, 6);
    // Asked anything else, the same remark gives way.
    const [other] = scoreList(hits, 10, [word([0])], 1, { names: [], when: false });
    expect(other?.hit.id).toBe(2);
  });

  it('counts a word in the fact above the same word in its message or the message before', () => {
    const hits = [hit(1, [1]), hit(2, [3]), hit(3, [2]), hit(4, [0])];
    const order = scoreList(hits, 10, [word([0])], 1, { names: [], when: false }).map((item) => item.hit.id);
    expect(order.slice(0, 3)).toEqual([2, 3, 1]);
  });

  it('counts a synonym for less than the word itself, and prefers dated memories when asked when', () => {
    const synonym = scoreList([hit(1, [3, 0]), hit(2, [0, 3])], 10, [word([0], [1])], 2, { names: [], when: false });
    expect(synonym.map((item) => item.hit.id)).toEqual([1, 2]);
    expect(synonym[1]?.score).toBeGreaterThan(0);
    const dated = scoreList([hit(1, [3]), hit(2, [3], { dated: true })], 10, [word([0])], 1, { names: [], when: true });
    expect(dated[0]?.hit.id).toBe(2);
  });
});

describe('neighbours (related words by a share of their own)', () => {
  it('counts a related lexeme by its own share when one is given, by the synonym share when not', () => {
    // lexeme 0 "desserts"; lexeme 1 "cakes" (a neighbour, share 0.2); lexeme 2 "sweets" (a synonym).
    const asked = [{ ...word([0], [1, 2]), shares: [0.2, 0.5] }];
    const order = scoreList([hit(1, [0, 3, 0]), hit(2, [0, 0, 3]), hit(3, [3, 0, 0])], 10, asked, 3, { names: [], when: false });
    expect(order.map((item) => item.hit.id)).toEqual([3, 2, 1]);
    // Each scores 0.8 × what it covers, plus the same 0.02 for recency (all are as new).
    const covered = order.map((item) => (item.score - 0.02) / 0.8);
    expect(covered[0]).toBeCloseTo(1, 6);
    expect(covered[1]).toBeCloseTo(0.5, 6);
    expect(covered[2]).toBeCloseTo(0.2, 6);
    // A neighbour is not the question's word: it never counts for the judgement whether anything is known.
    expect(order[2]?.direct).toBe(0);
  });
});

describe('queryWordsOf', () => {
  // "desserts" with one WordNet word ("sweet") and two neighbours ("pastries", and "sugary", whose
  // lexeme a WordNet word of "bake" also has); "mia" a name with no related words.
  const terms = ['desserts', 'bake', 'mia'];
  const lexemeLists = [['dessert'], ['bake'], ['mia'], ['sweet'], ['pastri'], ['sugari'], ['sugari']];
  const related = {
    related: [['sweet', 'pastries', 'sugary'], ['sugary'], []],
    shares: [[0.5, 0.2, 0.15], [0.5], []],
    classCounts: [1, 1, 0],
  };

  it('looks for only WordNet words as classes, and counts each related lexeme at its own share', () => {
    const { lexemes, words } = queryWordsOf(terms, ['mia'], lexemeLists, related, null);
    const desserts = words[0]!;
    expect(desserts.own.map((index) => lexemes[index])).toEqual(['dessert']);
    expect(desserts.related.map((index) => lexemes[index])).toEqual(['sweet', 'pastri', 'sugari']);
    expect(desserts.shares).toEqual([0.5, 0.2, 0.15]);
    expect(desserts.broader.map((index) => lexemes[index])).toEqual(['^dessert']);
    expect(desserts.relatedBroader.map((index) => lexemes[index])).toEqual(['^sweet']);
    // A name is no class of anything.
    expect(words[2]).toMatchObject({ name: true, broader: [], relatedBroader: [] });
  });

  it('brings in nothing by a lexeme only a neighbour gives', () => {
    const { neighbourOnly } = queryWordsOf(terms, ['mia'], lexemeLists, related, null);
    // "sugari" is also a WordNet word of "bake", so it brings memories in as WordNet words do.
    expect([...neighbourOnly]).toEqual(['pastri']);
  });
});

describe('relatedOfTerms', () => {
  it("adds a word's GloVe neighbours after its WordNet related words, each counting NEIGHBOUR_WEIGHT × similarity", () => {
    const { related, shares, classCounts } = relatedOfTerms('What desserts did Rose bake?', ['desserts', 'rose', 'bake'], ['rose']);
    const desserts = related[0]!;
    const cakes = desserts.indexOf('cakes');
    expect(cakes).toBeGreaterThanOrEqual(classCounts[0]!);
    const similarity = neighbourWords('desserts').find((neighbour) => neighbour.word === 'cakes')!.similarity;
    expect(shares[0]![cakes]).toBeCloseTo(0.25 * similarity, 6);
    // WordNet's come first, at the synonym share, and only they are looked for as classes.
    expect(shares[0]!.slice(0, classCounts[0])).toEqual(Array(classCounts[0]).fill(0.5));
    // A name has none: "Rose" is a person, whatever the word means.
    const rose = neighbourWords('rose').map((neighbour) => neighbour.word);
    expect(rose.length).toBeGreaterThan(0);
    expect(related[1]!.filter((word) => rose.includes(word))).toEqual([]);
  });

  it('leaves out a neighbour that is a word of the question itself', () => {
    const { related } = relatedOfTerms('Does Ana play violin or cello?', ['ana', 'play', 'violin', 'cello'], ['ana']);
    expect(neighbourWords('violin').map((neighbour) => neighbour.word)).toContain('cello');
    expect(related[2]).not.toContain('cello');
    expect(related[2]).toContain('piano');
  });
});

describe('broader words', () => {
  it('lets a memory naming a kind of what is asked for answer it, below one that says the word', () => {
    // lexeme 0 "sport"; lexeme 1 "^sport" (a memory saying "swimming"); memory 3 says neither.
    const asked = [word([0], [], [1])];
    const order = scoreList([hit(1, [0, 3]), hit(2, [3, 0]), hit(3, [0, 0])], 10, asked, 2, { names: [], when: false });
    expect(order.map((item) => item.hit.id)).toEqual([2, 1, 3]);
    expect(order[1]?.score).toBeGreaterThan(0);
    expect(order[1]?.direct).toBe(0);
  });
});

describe('time asked about', () => {
  it('lifts a memory said in the span, or saying its month and year, above one that is not', () => {
    const day = (iso: string) => Date.parse(iso);
    const time = { start: day('2026-11-09'), end: day('2026-11-16'), lexemes: [1, 2] };
    const hits = [
      hit(1, [3, 0, 0], { said: day('2026-11-21'), created_at: 3_000 }),
      hit(2, [3, 0, 0], { said: day('2026-11-11'), created_at: 2_000 }),
      hit(3, [3, 3, 3], { said: day('2026-10-01'), created_at: 1_000 }),
    ];
    const order = scoreList(hits, 10, [word([0])], 3, { names: [], when: false, time }).map((item) => item.hit.id);
    expect(order.slice(0, 2).sort()).toEqual([2, 3]);
    expect(order[2]).toBe(1);
    // Without the time, the newest comes first.
    expect(scoreList(hits, 10, [word([0])], 3, { names: [], when: false })[0]!.hit.id).toBe(1);
  });

  it('counts the words naming the day asked about as said by a memory said that day', () => {
    // "What did Priya plan on 7 March 2026?": lexemes 0 "plan", 1 "7", 2 "march", 3 "2026".
    const day = (iso: string) => Date.parse(iso);
    const time = { start: day('2026-03-07'), end: day('2026-03-08'), lexemes: [], words: [1, 2, 3] };
    const hits = [
      // Said that day without saying when ("Priya is off to a pottery class tonight.").
      hit(1, [3, 0, 0, 0], { said: day('2026-03-07') }),
      // Naming another day of the month ("On 21 March 2026 Priya made plans…").
      hit(2, [3, 0, 3, 3], { said: day('2026-03-22') }),
      hit(3, [0, 0, 0, 0], { said: day('2026-03-01') }),
    ];
    const words = [word([0]), word([1]), word([2]), word([3])];
    const order = scoreList(hits, 3, words, 4, { names: [], when: false, time }).map((item) => item.hit.id);
    expect(order[0]).toBe(1);
  });

  it('finds the question words that name the time asked about, and the day only for one day', () => {
    const lexemes = ['kayak', '7', 'march', '2026', 'priya'];
    const words = [word([0]), word([1]), word([2]), word([3]), { ...word([4]), name: true }];
    const oneDay = { phrase: '', start: new Date('2026-03-07'), end: new Date('2026-03-08'), words: ['march', '2026'] };
    expect(timeWordsOf(words, lexemes, oneDay, ['march', '2026'])).toEqual([1, 2, 3]);
    const month = { ...oneDay, start: new Date('2026-03-01'), end: new Date('2026-04-01') };
    expect(timeWordsOf(words, lexemes, month, ['march', '2026'])).toEqual([2, 3]);
  });
});

describe('judge', () => {
  it('judges a question naming a known person by the memories about that person', () => {
    const scored = [
      { hit: hit(1, [], { about: ['Priya'] }), score: 0.9, direct: 0.8 },
      { hit: hit(2, [], { about: ['Wendell'] }), score: 0.35, direct: 0.1 },
    ];
    expect(judge(rankingOf(scored), ['wendell'])).toBe(0.1);
    expect(judge(rankingOf(scored), ['priya'])).toBe(0.8);
    expect(judge(rankingOf(scored), ['peru'])).toBe(0.8);
    expect(judge(rankingOf(scored), [])).toBe(0.8);
  });

  it('counts only what a memory says in its own words, not its surroundings', () => {
    const scored = scoreList([hit(1, [3, 2]), hit(2, [2, 2])], 10, [word([0]), word([1])], 2, { names: [], when: false });
    const byId = new Map(scored.map((item) => [item.hit.id, item]));
    expect(byId.get(1)!.direct).toBeCloseTo(0.5);
    expect(byId.get(2)!.direct).toBe(0);
    expect(byId.get(2)!.score).toBeGreaterThan(0);
  });

  it('counts a memory as about a name it says in its own words, a pet or a place as a person', () => {
    // "What did Pip chew?": lexeme 0 "pip" (a name), lexeme 1 "chew". Memory 1 is about no one
    // the learner listed but says "Pip"; memory 2 says more of the question, not about Pip.
    const asked: QueryWord[] = [{ ...word([0]), name: true }, word([1])];
    const scored = [
      { hit: hit(1, [3, 0]), score: 0.5, direct: 0.3 },
      { hit: hit(2, [0, 3], { about: ['Ana'] }), score: 0.6, direct: 0.9 },
    ];
    expect(judge(rankingOf(scored), ['pip'], asked)).toBe(0.3);
    // "Pip chewed a slipper." says the name and another word of the question: it bears on it.
    expect(saysAboutNamed(rankingOf([{ hit: hit(3, [3, 3]), score: 0.5, direct: 0.1 }]), asked, ['pip'])).toBe(true);
  });

  it("lets a memory whose subject is the name say the question's other word in the message it answers", () => {
    // "What does Pip chew?": "Does Pip chew shoes?" — "He's fine, only slippers." is learned "Pip is
    // fine, only slippers.", about Pip, with "chew" in the message it answers (level 1).
    const asked: QueryWord[] = [{ ...word([0]), name: true }, word([1])];
    const reply = { hit: hit(1, [3, 1], { about: ['Pip'] }), score: 0.5, direct: 0.3 };
    expect(saysAboutNamed(rankingOf([reply]), asked, ['pip'])).toBe(true);
    // A memory about another, naming Pip, does not: its subject is not the name asked.
    const remark = { hit: hit(2, [3, 1], { about: ['Ana', 'Pip'] }), score: 0.5, direct: 0.3 };
    expect(saysAboutNamed(rankingOf([remark]), asked, ['pip'])).toBe(false);
  });

  it('lets a memory naming a kind of the answer asked for say that word, and no other word', () => {
    // "Which instrument does Ana play?": lexeme 0 "instrument", lexeme 1 "^instrument" (a memory
    // saying "cello"); lexeme 2 "play", said by both.
    const asked = (part: QueryWord['part']): QueryWord[] => [{ ...word([0], [], [1]), part }, word([2])];
    const hits = [hit(1, [0, 3, 3]), hit(2, [3, 0, 3])];
    const cello = (part: QueryWord['part']) =>
      scoreList(hits, 10, asked(part), 3, { names: [], when: false }).find((item) => item.hit.id === 1)!.direct;
    expect(cello('answer')).toBeCloseTo(1);
    expect(cello('thing')).toBeLessThan(0.6);
  });

  it('lets a memory in a slot answer a question about that slot in other words', () => {
    const asked = [word([0]), { ...word([1]), attribute: 'home' }];
    const [moved] = scoreList([hit(1, [3, 0], { slot: 'omar|home' })], 1, asked, 2, { names: [], when: false });
    expect(moved?.direct).toBe(1);
    const [other] = scoreList([hit(1, [3, 0], { slot: 'omar|work' })], 1, asked, 2, { names: [], when: false });
    expect(other?.direct).toBeLessThan(0.5);
  });
});

describe('questionParts', () => {
  it('tells the kind of answer asked for, the things asked about, and the manner of asking', () => {
    const parts = (question: string, words: string[]) => words.map((word) => questionParts(question).get(word));
    // The noun after "which" (or past "kind of") is the kind of answer; other nouns are things.
    expect(parts('Which kayak did Ana borrow in Oslo?', ['kayak', 'ana', 'borrow', 'oslo'])).toEqual([
      'answer',
      'thing',
      'manner',
      'thing',
    ]);
    expect(parts('What kind of tea does Ana brew?', ['tea'])).toEqual(['answer']);
    // … the whole phrase up to its verb: the kind of answer is a "board game", not a board.
    expect(parts('What board game did Ana borrow?', ['board', 'game', 'borrow'])).toEqual(['answer', 'answer', 'manner']);
    expect(parts('Which district of Lyon is their house in?', ['district', 'lyon'])).toEqual(['answer', 'thing']);
    // With no verb to end it, only the first noun: a mis-read verb is not the kind of answer.
    expect(parts('Which enzyme splits starch?', ['enzyme', 'starch'])).toEqual(['answer', 'thing']);
    expect(parts('Which enzyme splits starch into sugar?', ['enzyme', 'starch'])).toEqual(['answer', 'thing']);
    expect(parts('Which bird sings?', ['bird'])).toEqual(['answer']);
    // A question asking for a name wants the name, not the word "called".
    expect(parts("What is Omar's brother called?", ['omar', 'brother', 'called'])).toEqual(['thing', 'thing', 'answer']);
    // Adjectives say how it is asked.
    expect(parts('How old is the red barn?', ['old', 'barn'])).toEqual(['manner', 'thing']);
  });

  it("reads a word asking for a slot's value as the kind of answer, and a name as a thing", () => {
    // The tagger reads "job" as a noun; the answer is the job, not the word.
    expect(partOf('job', false, questionParts('What is my job?'))).toBe('answer');
    expect(partOf('kayak', false, questionParts('Where is my kayak?'))).toBe('thing');
    expect(partOf('ada', true, new Map())).toBe('thing');
  });

  it('judges a question about an unseen thing empty where an unseen manner of asking is not', () => {
    // "Where does Ana keep her kayak?" and "Where does Ana keep it lately?" against "Ana keeps her
    // bike in the shed.": lexeme 0 "keep" (said), lexeme 1 never stored.
    const known = (part: QueryWord['part']) => {
      const words: QueryWord[] = [word([0]), { ...word([1]), part }];
      return bearsOn(scoreHits(columnsOf([hit(1, [3, 0])]), 10, words, 2, { names: [], when: false }), words, []);
    };
    expect(known('thing')).toBe(false);
    expect(known('manner')).toBe(true);
  });
});

describe('query cues', () => {
  it('keeps the meaningful words and the names of a question', () => {
    expect(queryTerms("What is Priya's favourite book?")).toEqual(['priya', 'favourite', 'book']);
    // "done" and "many" ask for a list or a count; they say nothing a memory would.
    expect(queryTerms('How many races has Ana done?')).toEqual(['races', 'ana']);
    expect(questionNames("When did Priya's sister visit Lyon?")).toEqual(['priya', 'lyon']);
  });

  it('reads a time named with its year as the span it means, keeping its words in the question', () => {
    const now = new Date('2026-11-22T15:00:00Z');
    const span = (question: string) => {
      const time = questionTime(question, now);
      return time && [time.phrase, time.start.toISOString().slice(0, 10), time.end.toISOString().slice(0, 10), time.words.join(' ')];
    };
    expect(span('Where did Omar go in July 2022?')).toEqual(['', '2022-07-01', '2022-08-01', 'july 2022']);
    expect(span('What did Omar cook on 3 June, 2023?')).toEqual(['', '2023-06-03', '2023-06-04', 'june 2023']);
    expect(span('Where was Omar between August 11 and August 15 2023?')).toEqual(['', '2023-08-11', '2023-08-16', 'august 2023']);
    expect(span('What did Omar build in 2021?')).toEqual(['', '2021-01-01', '2022-01-01', '2021']);
    // Without a year the time is not named well enough to be a span.
    expect(span('What did Omar cook in June?')).toBeNull();
  });

  it('reads a time relative to when the question is asked as the span it means', () => {
    const now = new Date('2026-11-22T15:00:00Z'); // a Sunday
    const span = (question: string) => {
      const time = questionTime(question, now);
      return time && [time.phrase, time.start.toISOString().slice(0, 10), time.end.toISOString().slice(0, 10), time.words.join(' ')];
    };
    expect(span('What did Omar do last week?')).toEqual(['last week', '2026-11-09', '2026-11-16', 'november 2026']);
    expect(span('Where did we go yesterday?')).toEqual(['yesterday', '2026-11-21', '2026-11-22', 'november 2026']);
    expect(span('What did I cook last weekend?')).toEqual(['last weekend', '2026-11-14', '2026-11-16', 'november 2026']);
    expect(span('What are my plans for next month?')).toEqual(['next month', '2026-12-01', '2027-01-01', 'december 2026']);
    expect(span('What did I do last year?')).toEqual(['last year', '2025-01-01', '2026-01-01', '2025']);
    expect(span('What did Tom say two weeks ago?')).toEqual(['two weeks ago', '2026-11-02', '2026-11-09', 'november 2026']);
    expect(span('When did Priya move?')).toBeNull();
  });

  it('tells questions that ask for a time', () => {
    expect(asksWhen('When did Priya go to the choir rehearsal?')).toBe(true);
    expect(asksWhen('What year did Wendell start fencing?')).toBe(true);
    expect(asksWhen('What did Wendell paint?')).toBe(false);
    expect(asksView('What does Wendell think about the new kiln?')).toBe(true);
    expect(asksView('How did Priya describe the lake cabin?')).toBe(true);
    expect(asksView('What did Wendell paint?')).toBe(false);
  });
});

describe('the memories bearing on a question asking for one kind of answer (bearingPlaces)', () => {
  // "What is the landlord's name?": lexeme 0 "landlord", lexeme 1 "name" (asks for a name).
  const words: QueryWord[] = [word([0]), { ...word([1]), asksName: true }];
  const ids = (hits: LexemeHit[]) => {
    const ranking = scoreHits(columnsOf(hits), 10, words, 2, { names: [], when: false });
    return bearingPlaces(ranking, [], words).map((place) => ranking.hits.id[place]!);
  };

  it('reads what the question is about, not the word asking for a name', () => {
    // "The landlord fixed the boiler." and "The boat is named Wren.": only the first is about the landlord.
    expect(ids([hit(1, [3, 0]), hit(2, [0, 3])])).toEqual([1]);
    // Without the flag the word asking counts as any other word, and both bear.
    const plain: QueryWord[] = [word([0]), word([1])];
    const ranking = scoreHits(columnsOf([hit(1, [3, 0]), hit(2, [0, 3])]), 10, plain, 2, { names: [], when: false });
    expect(
      bearingPlaces(ranking, [], plain)
        .map((place) => ranking.hits.id[place]!)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('adds what was said near one bearing on it, when it says any of the question', () => {
    // "What is the name of Greta's second kitten?": lexeme 0 "greta" (in most of a hundred memories),
    // 1 "kitten", 2 "name". Memory 1 bears ("Greta adopted a second kitten."); memory 2 says only Greta
    // and the asking word two messages later ("Greta said its name is Fig."); memory 3 says nothing of the
    // question beside it; memory 4 is as memory 2 in another source, memory 5 too far down the talk.
    const asked: QueryWord[] = [word([0]), word([1]), { ...word([2]), asksName: true }];
    const hits = [
      hit(1, [3, 3, 0], { passage: 'src:a:4' }),
      hit(2, [3, 0, 3], { passage: 'src:a:6' }),
      hit(3, [0, 0, 2], { passage: 'src:a:5' }),
      hit(4, [3, 0, 3], { passage: 'src:b:4' }),
      hit(5, [3, 0, 3], { passage: 'src:a:9' }),
    ];
    const ranking = scoreHits(columnsOf(hits), 100, asked, 3, { names: [], when: false }, [80, 1, 10]);
    const bearing = bearingPlaces(ranking, [], asked).map((place) => ranking.hits.id[place]!);
    expect(bearing).toEqual([1, 2]);
  });
});

describe('a thing stored under the name of a kind of it (scoreHits)', () => {
  it('counts a memory naming a kind of an unseen thing as saying it, where it says more of the question', () => {
    // "What breed is my dog Pepper?" where no memory says "dog": lexeme 0 "dog" (never stored), 1
    // "pepper", 2 the class "dog" that "terrier" is indexed under.
    const words: QueryWord[] = [
      { ...word([0], [], [2]), part: 'thing' },
      { ...word([1]), part: 'thing' },
    ];
    const hits = [hit(1, [0, 3, 3]), hit(2, [0, 0, 3]), hit(3, [0, 3, 0])];
    const direct = new Map(
      listed(scoreHits(columnsOf(hits), 20, words, 3, { names: [], when: false })).map((item) => [item.hit.id, item.direct]),
    );
    // "My terrier Pepper…" bears on it; a terrier alone, or Pepper alone, does not.
    expect(direct.get(1)).toBeGreaterThan(KNOWN_THRESHOLD);
    expect(direct.get(2)).toBe(0);
    expect(direct.get(3)).toBeLessThan(KNOWN_THRESHOLD);
  });
});

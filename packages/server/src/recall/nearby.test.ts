import { describe, expect, it } from 'vitest';
import { columnsOf } from '../store/hit-columns.js';
import { lexemeHit } from './lexeme-hit.fixture.js';
import { addNearby, messageAt, NEARBY_CUE, NEARBY_KEPT, NEARBY_MESSAGES } from './nearby.js';
import { listed, rankingOf } from './search.js';

/** A memory already scored, from message `index` of source `source`. */
const scored = (id: number, score: number, source: string, index: number) => ({
  hit: lexemeHit(id, [], { passage: `${source}:${index}` }),
  score,
  direct: 0,
});

describe('messageAt', () => {
  it("reads a memory's source and message index, from the store's passage or the copy's columns", () => {
    const hits = columnsOf([
      lexemeHit(1, [], { passage: 'src_a1:12' }),
      lexemeHit(2, [], { passage: null }),
      lexemeHit(3, [], { passage: 'src_a1' }),
    ]);
    expect(messageAt(hits, 0)).toEqual({ source: 'src_a1', index: 12 });
    expect(messageAt(hits, 1)).toBeNull();
    expect(messageAt(hits, 2)).toBeNull();
    // The index copy gives the source and the index apart.
    const apart = columnsOf([lexemeHit(4, [], { passage: 'src_b2' })]);
    apart.passageIndex[0] = 7;
    expect(messageAt(apart, 0)).toEqual({ source: 'src_b2', index: 7 });
  });
});

describe('addNearby', () => {
  // "What did Odile plan for the summer?": the best match is "Odile booked the cabin by the lake
  // for the summer." (message 10 of a chat); two messages on, "Odile wants to teach the kids to
  // fish there." (12) says the rest with none of the question's words. Between them in the
  // ranking, memories of other chats sharing a word.
  const ranking = () =>
    rankingOf([
      scored(1, 0.9, 'chat', 10),
      scored(2, 0.7, 'other', 3),
      scored(3, 0.69, 'other', 40),
      scored(4, 0.68, 'third', 2),
      scored(5, 0.67, 'third', 9),
      scored(6, 0.5, 'fourth', 1),
      scored(7, 0.49, 'fourth', 6),
      // Near the best in its chat.
      scored(8, 0.46, 'chat', 10 + NEARBY_MESSAGES),
      // As near, in another chat; and in the best's chat, too far from it.
      scored(9, 0.46, 'elsewhere', 10 + NEARBY_MESSAGES),
      scored(10, 0.46, 'chat', 11 + NEARBY_MESSAGES),
      // Another fact of the best memory's own message.
      scored(11, 0.46, 'chat', 10),
    ]);

  it("raises the memories of messages near the best one's, in its source, past the best few", () => {
    const nearby = ranking();
    expect(addNearby(nearby, nearby.length)).toBe(1);
    nearby.order.sort((left, right) => nearby.score[right]! - nearby.score[left]! || nearby.hits.id[right]! - nearby.hits.id[left]!);
    const ids = listed(nearby).map((item) => item.hit.id);
    // The near one passes the two memories of another chat above it; the best few keep their places.
    expect(ids).toEqual([1, 2, 3, 4, 5, 8, 6, 7, 11, 10, 9]);
    expect(nearby.score[7]).toBeCloseTo(0.46 + NEARBY_CUE, 9);
    for (const place of [8, 9, 10]) expect(nearby.score[place]).toBe(0.46);
  });

  it('keeps a raised memory below the last of the best few', () => {
    const close = rankingOf([
      scored(1, 0.9, 'chat', 10),
      ...[2, 3, 4, 5].map((id) => scored(id, 0.6 - id / 1_000, 'other', id)),
      scored(6, 0.58, 'chat', 11),
    ]);
    expect(NEARBY_KEPT).toBe(5);
    expect(addNearby(close, close.length)).toBe(1);
    // 0.58 + the cue would pass the fifth best (0.595): it is raised to just below it.
    expect(close.score[5]!).toBeLessThan(close.score[4]!);
    expect(close.score[5]!).toBeGreaterThan(0.58);
  });

  it('raises nothing when the best memory is in no source, or only the first memories are looked at', () => {
    const alone = rankingOf([
      { hit: lexemeHit(1, [], { passage: null }), score: 0.9, direct: 0 },
      ...[2, 3, 4, 5, 6, 7].map((id) => scored(id, 0.6 - id / 1_000, 'chat', id)),
    ]);
    expect(addNearby(alone, alone.length)).toBe(0);
    expect(addNearby(ranking(), 7)).toBe(0);
  });
});

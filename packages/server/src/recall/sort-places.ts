/**
 * Sorts the first `length` places of `order` by score, highest first, then by id, highest first:
 * the order of search.ts's `byScoreOf`, which no two places share (ids are unique), so any sort
 * gives the same order. A large space scores thousands of memories a question; sorting them
 * through a comparator (the typed array's own sort) cost about three times this merge sort,
 * which compares in place and takes its scratch space from `scratch` when it is long enough.
 */
export function sortPlaces(
  order: Int32Array,
  length: number,
  score: Float64Array,
  id: Int32Array,
  scratch: Int32Array = new Int32Array(length),
): void {
  // Runs of RUN sorted by insertion, then merged in pairs, back and forth between the two arrays.
  for (let start = 0; start < length; start += RUN) {
    const end = Math.min(start + RUN, length);
    for (let index = start + 1; index < end; index++) {
      const place = order[index]!;
      const value = score[place]!;
      const own = id[place]!;
      let at = index - 1;
      for (; at >= start; at--) {
        const other = order[at]!;
        const otherValue = score[other]!;
        if (otherValue > value || (otherValue === value && id[other]! > own)) break;
        order[at + 1] = other;
      }
      order[at + 1] = place;
    }
  }
  let from = order;
  let to = scratch.length >= length ? scratch : new Int32Array(length);
  for (let width = RUN; width < length; width *= 2) {
    for (let left = 0; left < length; left += 2 * width) {
      const middle = Math.min(left + width, length);
      const right = Math.min(left + 2 * width, length);
      let first = left;
      let second = middle;
      let at = left;
      while (first < middle && second < right) {
        const one = from[first]!;
        const two = from[second]!;
        const oneValue = score[one]!;
        const twoValue = score[two]!;
        if (oneValue > twoValue || (oneValue === twoValue && id[one]! > id[two]!)) {
          to[at++] = one;
          first++;
        } else {
          to[at++] = two;
          second++;
        }
      }
      while (first < middle) to[at++] = from[first++]!;
      while (second < right) to[at++] = from[second++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  // Copied back when the last merge wrote to the scratch (always called, so that V8 compiles it once).
  order.set(from.subarray(0, length));
}

/** Places sorted by insertion before merging. */
const RUN = 16;

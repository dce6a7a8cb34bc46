/** The shape of the SDK's `Stream`: `iterator` makes each pass over it (a public field in openai 5 to 7). */
interface StreamInternals<T> {
  iterator?: () => AsyncIterator<T>;
}

/**
 * Lets `onItem` see each item of an SDK stream as the app reads it, and calls `onEnd` once the
 * app has read it to its end (not when it stops early or the stream fails). The stream object is
 * the same one the SDK made, so `tee()`, `toReadableStream()` and `controller` work as before.
 * Returns false when the stream is not one it knows how to watch.
 */
export function watchStream<T>(stream: unknown, onItem: (item: T) => void, onEnd: () => void): boolean {
  const internals = stream as StreamInternals<T> | null;
  if (internals === null || typeof internals !== 'object' || typeof internals.iterator !== 'function') return false;
  const makeIterator = internals.iterator;
  internals.iterator = () => {
    const inner = makeIterator();
    let ended = false;
    const watched: AsyncIterator<T> = {
      async next() {
        const result = await inner.next();
        if (result.done) {
          if (!ended) {
            ended = true;
            onEnd();
          }
        } else {
          onItem(result.value);
        }
        return result;
      },
    };
    if (inner.return) watched.return = (value?: unknown) => inner.return!(value);
    if (inner.throw) watched.throw = (error?: unknown) => inner.throw!(error);
    return watched;
  };
  return true;
}

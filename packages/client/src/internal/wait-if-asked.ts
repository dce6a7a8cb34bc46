import type { Source } from '@engram/protocol';
import type { SaveOptions } from '../options.js';
import type { Sources } from '../resources/sources.js';

/**
 * A save's `{ wait }` option: the source once learning has ended (or the wait timed out),
 * else the source as saved. The wait uses the save's signal, timeout, retries and headers.
 */
export function waitIfAsked(sources: Sources, source: Source, space: string | undefined, options: SaveOptions): Promise<Source> {
  if (!options.wait) return Promise.resolve(source);
  const timeout = typeof options.wait === 'object' ? options.wait.timeout : undefined;
  const { signal, maxRetries, headers } = options;
  return sources.wait(source.id, { timeout, space }, { signal, timeout: options.timeout, maxRetries, headers });
}

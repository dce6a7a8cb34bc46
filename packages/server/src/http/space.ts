import { LIMITS } from '@engram/protocol';
import type { Context } from 'hono';
import type { Scope } from '../store/scope.js';
import type { AppEnv } from './context.js';
import { HttpError, invalidField } from './errors.js';

/** Header that selects a space, as the `space` field does. */
export const SPACE_HEADER = 'X-Memory-Space';

/**
 * The scope of a call: the space from the X-Memory-Space header or the `space` field
 * (400 when they differ), blank meaning the owner's memory unless the operation refuses
 * blanks, and a limited key held to its own space (403 elsewhere).
 */
export function resolveScope(c: Context<AppEnv>, field: string | undefined, options: { blankRefused?: boolean } = {}): Scope {
  const caller = c.get('caller');
  const header = c.req.header(SPACE_HEADER);
  if (header !== undefined && field !== undefined && header !== field) {
    throw new HttpError('invalid_request', `The ${SPACE_HEADER} header and the space field name different spaces`, {
      field: 'space',
    });
  }
  const named = field ?? header;
  if (named === undefined) {
    c.set('space', caller.limitedTo ?? '');
    return { accountId: caller.accountId, space: caller.limitedTo ?? '' };
  }
  if (named.length > LIMITS.spaceChars) throw invalidField('space', `at most ${LIMITS.spaceChars} characters`);
  const blank = named.trim() === '';
  if (blank && options.blankRefused) throw invalidField('space', 'a blank space is refused on this operation');
  const space = blank ? '' : named;
  if (caller.limitedTo !== null && space !== caller.limitedTo) {
    throw new HttpError('permission_denied', 'This key is limited to another space');
  }
  c.set('space', space);
  return { accountId: caller.accountId, space };
}

import { LIMITS, normalizeSpaceName, spaceNameProblem } from '@engram/protocol';
import type { Context } from 'hono';
import type { Scope } from '../store/scope.js';
import type { AppEnv } from './context.js';
import { HttpError, invalidField } from './errors.js';

/** Header that selects a space, as the `space` field does. */
export const SPACE_HEADER = 'X-Memory-Space';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header's value as the client wrote it. Node hands header bytes over one byte a character
 * (Latin-1); clients send UTF-8, so the bytes are read again as UTF-8. Bytes that are not
 * UTF-8 are kept as Latin-1, which is what older clients sent for names such as "café".
 */
export function decodeHeader(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, controls included
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** The X-Memory-Space header, decoded as UTF-8; undefined when it was not sent. */
export function spaceHeader(c: Context<AppEnv>): string | undefined {
  const raw = c.req.header(SPACE_HEADER);
  return raw === undefined ? undefined : decodeHeader(raw);
}

/** Methods whose `space` travels in the body; a `space` in their query string must agree with it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A named space checked and normalised: the same rule for the header, the body and the query. */
function checkedName(name: string): string {
  const problem = spaceNameProblem(name);
  if (problem) throw invalidField('space', problem);
  const normalized = normalizeSpaceName(name);
  if (normalized.length > LIMITS.spaceChars) throw invalidField('space', `at most ${LIMITS.spaceChars} characters`);
  return normalized;
}

/**
 * The scope of a call: the space from the X-Memory-Space header, the `space` field or (on a
 * POST, PUT or PATCH) a `space` query parameter, all of which must agree (400 when they differ),
 * blank meaning the owner's memory unless the operation refuses blanks, and a limited key held to
 * its own space (403 elsewhere).
 */
export function resolveScope(c: Context<AppEnv>, field: string | undefined, options: { blankRefused?: boolean } = {}): Scope {
  const caller = c.get('caller');
  const given: string[] = [];
  const header = spaceHeader(c);
  if (header !== undefined) given.push(checkedName(header));
  if (field !== undefined) given.push(checkedName(field));
  if (BODY_METHODS.has(c.req.method)) {
    const query = c.req.query('space');
    if (query !== undefined) given.push(checkedName(query));
  }
  if (given.some((name) => name !== given[0])) {
    throw new HttpError('invalid_request', `The ${SPACE_HEADER} header and the space field name different spaces`, {
      field: 'space',
    });
  }
  const named = given[0];
  if (named === undefined) {
    c.set('space', caller.limitedTo ?? '');
    return { accountId: caller.accountId, space: caller.limitedTo ?? '' };
  }
  const blank = named.trim() === '';
  if (blank && options.blankRefused) throw invalidField('space', 'a blank space is refused on this operation');
  const space = blank ? '' : named;
  if (caller.limitedTo !== null && space !== caller.limitedTo) {
    throw new HttpError('permission_denied', 'This key is limited to another space');
  }
  c.set('space', space);
  return { accountId: caller.accountId, space };
}

/** Whether the call names a space at all (header, or `space` in its query string). */
export function namesSpace(c: Context<AppEnv>): boolean {
  return c.req.header(SPACE_HEADER) !== undefined || c.req.query('space') !== undefined;
}

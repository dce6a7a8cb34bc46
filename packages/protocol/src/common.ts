import { z } from 'zod';
import { LIMITS } from './limits.js';

// A NUL, or half of a surrogate pair without its other half: neither can be stored as text
// (PostgreSQL refuses NUL; UTF-8 has no spelling for a lone surrogate, so it would be changed).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this finds
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string can be stored and given back exactly: no NUL character and no lone surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_TEXT.test(value);
}

/** The message of a text field refused for a NUL or a lone surrogate. */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character (\\u0000) or a lone surrogate';

/**
 * A string field of a request: refused (400 naming the field) when it holds a NUL or a lone
 * surrogate. Every text a request carries is checked by this one rule.
 *
 * @example
 * const title = storableText().max(300).optional();
 */
export const storableText = () => z.string().refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE });

/**
 * Whether an object, array or string holds an unstorable string anywhere (keys included);
 * for the loosely shaped parts of a request, such as message content blocks.
 */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => hasUnstorableText(item, depth + 1));
  return Object.entries(value).some(([key, item]) => !isStorableText(key) || hasUnstorableText(item, depth + 1));
}

// Control characters (C0, DEL, C1), line and paragraph separators, and the marks and
// embeddings that reorder text on screen (U+061C, U+200E/F, U+202A-202E, U+2066-2069):
// a space name holding one would look like another name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const SPACE_NAME_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/** Why a space name is refused, or null when it is a valid name (before normalisation). */
export function spaceNameProblem(name: string): string | null {
  if (!isStorableText(name)) return UNSTORABLE_TEXT_MESSAGE;
  if (SPACE_NAME_FORBIDDEN.test(name)) return 'must not contain control characters or bidirectional marks';
  return null;
}

/**
 * The one normalisation of a space name, for the header and the field alike: Unicode NFC
 * (a composed and a decomposed "é" name the same space); white space around it is kept.
 */
export function normalizeSpaceName(name: string): string {
  return name.normalize('NFC');
}

/** A space name (one end user's memory): up to 128 characters; blank means the owner's own memory where allowed. */
export const SpaceSchema = z
  .string()
  .max(LIMITS.spaceChars)
  .superRefine((name, context) => {
    const problem = spaceNameProblem(name);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      "The end user's space. Same meaning as the X-Memory-Space header; when both are given they must agree. No control characters or bidirectional marks; compared in Unicode NFC.",
  });

/** The kind of a memory. */
export const MemoryKindSchema = z.enum(['people', 'plan', 'pref', 'detail']);
export type MemoryKind = z.infer<typeof MemoryKindSchema>;

/** The kind filter of listings and recall. */
export const KindFilterSchema = z.enum(['all', 'people', 'plan', 'pref', 'detail']);
export type KindFilter = z.infer<typeof KindFilterSchema>;

/** An integer from a query string ("20") or a JSON number. */
export const queryInt = (min: number, max: number) => z.coerce.number<number | string>().int().min(min).max(max);

/** An integer field of a JSON body (no coercion: "12" or true are refused). */
export const bodyInt = (min: number, max: number) => z.number().int().min(min).max(max);

/** A JSON body's `limit`, bounded and defaulted. */
export const bodyLimitSchema = (bounds: { min: number; max: number; default: number }) =>
  bodyInt(bounds.min, bounds.max).default(bounds.default);

/** A listing's `limit`, bounded and defaulted per SPEC.md section 8. */
export const limitSchema = (bounds: { min: number; max: number; default: number }) =>
  queryInt(bounds.min, bounds.max).default(bounds.default);

/** A listing's `cursor` (at least 0, default 0). */
export const CursorSchema = z.coerce.number<number | string>().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0);

/** The largest integer id (memories, keys, intentions…): the store's ids are 32-bit `integer` columns. */
export const MAX_INT_ID = 2_147_483_647;

/** An id in a path: an integer at least 1. */
export const IntIdSchema = z.coerce.number<number | string>().int().min(1).max(MAX_INT_ID);

/** A timestamp (ISO 8601, UTC). */
export const TimestampSchema = z.string().meta({ description: 'ISO 8601 time in UTC' });

/** A calendar day, YYYY-MM-DD. */
export const DaySchema = z.string().meta({ description: 'A day, YYYY-MM-DD' });

/** Counts of current memories by kind. */
export const CountsSchema = z
  .object({
    all: z.number().int(),
    people: z.number().int(),
    plan: z.number().int(),
    pref: z.number().int(),
    detail: z.number().int(),
  })
  .meta({ id: 'Counts' });
export type Counts = z.infer<typeof CountsSchema>;

/** A boolean from a query string ("true", "1", "false", "0") or JSON. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

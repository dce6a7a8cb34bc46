import { z } from 'zod';
import { LIMITS } from './limits.js';

/** A space name (one end user's memory): up to 128 characters; blank means the owner's own memory where allowed. */
export const SpaceSchema = z.string().max(LIMITS.spaceChars).meta({
  description: 'The end user\'s space. Same meaning as the X-Memory-Space header; when both are given they must agree.',
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

/** An id in a path: an integer at least 1. */
export const IntIdSchema = z.coerce.number<number | string>().int().min(1).max(2_147_483_647);

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

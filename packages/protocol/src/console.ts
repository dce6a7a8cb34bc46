import { z } from 'zod';
import { DaySchema, queryInt, storableText, TimestampSchema } from './common.js';
import { LIMITS } from './limits.js';

/* ------------------------------------------------------------- request log */

/** One answered call in the request log: never its body, never its key. */
export const RequestLogRowSchema = z
  .object({
    id: z.number().int(),
    at: TimestampSchema,
    method: z.string(),
    route: z.string().meta({ description: "The route's pattern, e.g. /v1/memories/:memory_id", example: '/v1/memories' }),
    status: z.number().int(),
    space: z.string().nullable(),
    key_prefix: z.string().meta({ description: 'The first characters of the key that made the call' }),
    request_id: z.string().meta({ example: 'req_3k9m2x7q1w5e8r4t0a1b' }),
    duration_ms: z.number().int(),
    error_type: z.string().nullable(),
  })
  .meta({ id: 'RequestLogRow' });
export type RequestLogRow = z.infer<typeof RequestLogRowSchema>;

export const ListRequestsQuerySchema = z.object({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5]\d\d)$/i)
    .optional()
    .meta({ description: 'An exact status (404) or a class (4xx)' }),
  space: storableText().max(LIMITS.spaceChars).optional(),
  route: storableText().max(200).optional().meta({ description: 'A route pattern, e.g. /v1/memories/:memory_id' }),
  request_id: storableText().max(100).optional(),
  limit: queryInt(1, 200).default(50),
  cursor: queryInt(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: 'The last id of the previous page' }),
});
export type ListRequestsQuery = z.input<typeof ListRequestsQuerySchema>;

export const ListRequestsResponseSchema = z.object({
  requests: z.array(RequestLogRowSchema),
  next: z.number().int().optional().meta({ description: 'The cursor of the following page, absent on the last' }),
});
export type ListRequestsResponse = z.infer<typeof ListRequestsResponseSchema>;

/* ------------------------------------------------------------ account keys */

/** A key that reaches the whole account, as listed (the key text appears only on creation). */
export const AccountKeyOutSchema = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    starts_with: z.string(),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable(),
    revoked_at: TimestampSchema.nullable(),
    current: z.boolean().meta({ description: 'True for the key that made this call' }),
  })
  .meta({ id: 'AccountKeyOut' });
export type AccountKeyOut = z.infer<typeof AccountKeyOutSchema>;

export const CreateAccountKeyRequestSchema = z.object({ name: storableText().max(LIMITS.keyNameChars).optional() });
export type CreateAccountKeyRequest = z.input<typeof CreateAccountKeyRequestSchema>;

export const CreatedAccountKeySchema = AccountKeyOutSchema.extend({ key: z.string() }).meta({ id: 'CreatedAccountKey' });
export type CreatedAccountKey = z.infer<typeof CreatedAccountKeySchema>;

export const ListAccountKeysResponseSchema = z.object({ keys: z.array(AccountKeyOutSchema) });
export type ListAccountKeysResponse = z.infer<typeof ListAccountKeysResponseSchema>;

export const RevokeAccountKeyResponseSchema = z.object({ id: z.number().int(), revoked: z.literal(true) });
export type RevokeAccountKeyResponse = z.infer<typeof RevokeAccountKeyResponseSchema>;

/* ------------------------------------------------------------ daily usage */

export const DailyUsageQuerySchema = z.object({ days: queryInt(1, 366).default(30) });
export type DailyUsageQuery = z.input<typeof DailyUsageQuerySchema>;

/** One day of the usage chart, in UTC. */
export const DailyUsageRowSchema = z
  .object({ day: DaySchema, learned_tokens: z.number().int(), answers: z.number().int() })
  .meta({ id: 'DailyUsageRow' });
export type DailyUsageRow = z.infer<typeof DailyUsageRowSchema>;

export const DailyUsageResponseSchema = z.object({ days: z.array(DailyUsageRowSchema) });
export type DailyUsageResponse = z.infer<typeof DailyUsageResponseSchema>;

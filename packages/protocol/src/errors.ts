import { z } from 'zod';

/** Every error type the API answers with, and its HTTP status (DECISIONS.md). */
export const ERROR_STATUS = {
  invalid_request: 400,
  authentication_error: 401,
  usage_paused: 402,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unreadable: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

/** One of the API's error types. */
export type ErrorType = keyof typeof ERROR_STATUS;

export const ErrorTypeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorType, ...ErrorType[]]);

/** The JSON body of every error response. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      type: ErrorTypeSchema,
      message: z.string(),
      request_id: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

import { ErrorBodySchema } from '@engram/protocol';
import type { ZodType } from 'zod';

/** A required JSON request body. */
export const jsonBody = <T extends ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true as const },
});

/** A JSON response. */
export const jsonResponse = <T extends ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

const errorResponse = (description: string) => jsonResponse(ErrorBodySchema, description);

/** The error answers every authenticated route can give. */
export const errorResponses = {
  400: errorResponse('Invalid request: a field out of its limits, or the header and field disagree'),
  401: errorResponse('No key, or a wrong, revoked or expired key'),
  403: errorResponse('A limited key reaching outside its space'),
  429: errorResponse("Over the key's requests a minute"),
} as const;

export const notFoundResponse = { 404: errorResponse('No such record in this space') } as const;

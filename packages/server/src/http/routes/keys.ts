import {
  CreatedKeySchema,
  CreateKeyRequestSchema,
  IntIdSchema,
  ListKeysResponseSchema,
  RevokeKeyResponseSchema,
  SpaceQuerySchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { createLimitedKey, listLimitedKeys, revokeLimitedKey } from '../../store/key-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { HttpError, invalidField } from '../errors.js';
import { errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../openapi.js';
import { namesSpace, resolveScope } from '../space.js';

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * When a key stops working: an ISO 8601 time (UTC when it names no zone), or a date the
 * key works through, in UTC (so it stops at the next midnight UTC). Null for "until revoked".
 */
export function parseExpiry(value: string | undefined, now: Date): Date | null {
  if (value === undefined) return null;
  let expires: Date;
  const day = DAY.exec(value);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    expires = new Date(Date.UTC(year, month - 1, date + 1));
    const check = new Date(Date.UTC(year, month - 1, date));
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) throw invalidField('expires_at', 'not a real date');
  } else if (ISO_TIME.test(value)) {
    expires = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
  } else {
    throw invalidField('expires_at', 'give an ISO 8601 time (2026-12-31T18:00:00Z) or a date (2026-12-31)');
  }
  if (Number.isNaN(expires.getTime())) throw invalidField('expires_at', 'not a real time');
  if (expires.getTime() <= now.getTime()) throw invalidField('expires_at', 'is already past');
  return expires;
}

/** Only a key that reaches the whole account may make, list or revoke keys. */
function requireAccountKey(c: Context<AppEnv>): void {
  if (c.get('caller').limitedTo !== null) {
    throw new HttpError('permission_denied', 'A key limited to one space cannot make, list or revoke keys');
  }
}

/** The space a keys call names (header, field or query), refusing a blank one; null when none is named. */
function namedSpace(c: Context<AppEnv>, field: string | undefined): string | null {
  if (field === undefined && !namesSpace(c)) return null;
  return resolveScope(c, field, { blankRefused: true }).space;
}

/** Routes of keys limited to one space. */
export function keyRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/keys',
      summary: "Make a key limited to one space, for that user's own app (shown once)",
      request: jsonBody(CreateKeyRequestSchema),
      responses: { 201: jsonResponse(CreatedKeySchema, 'The key, with its text this once'), ...errorResponses },
    }),
    async (c) => {
      requireAccountKey(c);
      const input = c.req.valid('json');
      const space = namedSpace(c, input.space);
      if (space === null) throw invalidField('space', 'name the space the key reaches');
      const key = await createLimitedKey(db, c.get('caller').accountId, {
        space,
        name: input.name ?? null,
        rpm: input.rpm,
        expiresAt: parseExpiry(input.expires_at, now()),
        note: input.note ?? null,
      });
      return c.json(key, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/keys',
      summary: 'List the keys limited to a space (every space when none is named)',
      request: { query: SpaceQuerySchema },
      responses: { 200: jsonResponse(ListKeysResponseSchema, 'The keys, without their text'), ...errorResponses },
    }),
    async (c) => {
      requireAccountKey(c);
      const space = namedSpace(c, c.req.valid('query').space);
      return c.json({ keys: await listLimitedKeys(db, c.get('caller').accountId, space) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/keys/{key_id}',
      summary: 'Revoke a limited key; it stops at once',
      request: { params: z.object({ key_id: IntIdSchema }), query: SpaceQuerySchema },
      responses: { 200: jsonResponse(RevokeKeyResponseSchema, 'Revoked'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      requireAccountKey(c);
      const { key_id } = c.req.valid('param');
      const space = namedSpace(c, c.req.valid('query').space);
      const revoked = await revokeLimitedKey(db, c.get('caller').accountId, key_id, space);
      if (!revoked) throw new HttpError('not_found', `No key ${key_id}${space === null ? '' : ' in this space'}`);
      return c.json({ id: revoked.id, space: revoked.space, revoked: true }, 200);
    },
  );

  return app;
}

import {
  CreateAccountKeyRequestSchema,
  CreatedAccountKeySchema,
  ErrorBodySchema,
  IntIdSchema,
  ListAccountKeysResponseSchema,
  RevokeAccountKeyResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { createAccountKey, listAccountKeys, revokeAccountKey } from '../../store/account-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { HttpError } from '../errors.js';
import { errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../openapi.js';

/** Only a key that reaches the whole account may see or change the account's keys. */
function requireAccountKey(c: Context<AppEnv>): void {
  if (c.get('caller').limitedTo !== null) {
    throw new HttpError('permission_denied', 'A key limited to one space cannot make, list or revoke account keys');
  }
}

type AccountKeyRow = Awaited<ReturnType<typeof listAccountKeys>>[number];

const keyOut = (row: AccountKeyRow, callerKeyId: number) => ({
  id: row.id,
  name: row.name,
  starts_with: row.starts_with,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
  current: row.id === callerKeyId,
});

/** Routes of the keys that reach the whole account (the console's API keys page). */
export function accountKeyRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/account-keys',
      summary: 'List the account keys, revoked ones included, without their text',
      responses: { 200: jsonResponse(ListAccountKeysResponseSchema, 'The account keys'), ...errorResponses },
    }),
    async (c) => {
      requireAccountKey(c);
      const caller = c.get('caller');
      const rows = await listAccountKeys(db, caller.accountId);
      return c.json({ keys: rows.map((row) => keyOut(row, caller.keyId)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/account-keys',
      summary: 'Make an account key (shown once)',
      request: jsonBody(CreateAccountKeyRequestSchema),
      responses: { 201: jsonResponse(CreatedAccountKeySchema, 'The key, with its text this once'), ...errorResponses },
    }),
    async (c) => {
      requireAccountKey(c);
      const caller = c.get('caller');
      const { name } = c.req.valid('json');
      const made = await createAccountKey(db, caller.accountId, { name: name ?? null });
      const row = (await listAccountKeys(db, caller.accountId)).find((key) => key.id === made.id)!;
      return c.json({ ...keyOut(row, caller.keyId), key: made.key }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/account-keys/{key_id}',
      summary: 'Revoke an account key; it stops at once. The key making the call cannot revoke itself (409)',
      request: { params: z.object({ key_id: IntIdSchema }) },
      responses: {
        200: jsonResponse(RevokeAccountKeyResponseSchema, 'Revoked'),
        ...errorResponses,
        ...notFoundResponse,
        409: jsonResponse(ErrorBodySchema, 'The key making the call cannot revoke itself'),
      },
    }),
    async (c) => {
      requireAccountKey(c);
      const caller = c.get('caller');
      const { key_id } = c.req.valid('param');
      if (key_id === caller.keyId) {
        throw new HttpError('conflict', 'This is the key making the call; revoke it with another account key', undefined, {
          retryable: false,
        });
      }
      if (!(await revokeAccountKey(db, caller.accountId, key_id))) throw new HttpError('not_found', `No account key ${key_id}`);
      return c.json({ id: key_id, revoked: true as const }, 200);
    },
  );

  return app;
}

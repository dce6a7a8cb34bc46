import {
  BriefingRequestSchema,
  BriefingResponseSchema,
  EpisodesQuerySchema,
  EpisodesResponseSchema,
  IntentionResponseSchema,
  IntentionsQuerySchema,
  IntentionsResponseSchema,
  IntIdSchema,
  LessonsQuerySchema,
  LessonsResponseSchema,
  MemoryHealthResponseSchema,
  MemoryHealthRunRequestSchema,
  NowQuerySchema,
  NowResponseSchema,
  SpaceQuerySchema,
  UpdateIntentionRequestSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { projectStates } from '../../brief/state.js';
import { brief, checkHealth } from '../../operations/briefing.js';
import { listEpisodes, listIntentions, listLessons, setIntentionStatus } from '../../store/briefing-repository.js';
import { latestHealth } from '../../store/health-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { HttpError } from '../errors.js';
import { errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

const intentionParams = z.object({ intention_id: IntIdSchema });
/** SPEC.md refuses a blank space on every operation here. */
const refuseBlank = { blankRefused: true };

/** Routes of briefings: the briefing itself, now, episodes, lessons, intentions and memory health. */
export function briefingRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/briefing',
      summary: 'Where a project stands, what is due, the rules that apply, what happened and the memories, within a budget',
      description:
        'Assembled by reading, never written by a model. The text has these parts in this order: where things stand, what is due ' +
        '(open intentions overdue or due within 7 days, and those whose cue matches `cue`), rules that apply, what happened, then ' +
        'memories each with its date. What bears on `cue` comes first in every part. The text is never longer than `budget_chars`, ' +
        'never cut inside a line, and a larger budget only adds lines. The arrays hold what the text shows.',
      request: jsonBody(BriefingRequestSchema),
      responses: { 200: jsonResponse(BriefingResponseSchema, 'The briefing'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space, refuseBlank);
      const briefing = await brief(operationsOf(deps), scope, { project: input.project, cue: input.cue, budgetChars: input.budget_chars });
      return c.json(briefing, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/now',
      summary: 'Goal, focus, open items, decisions and next steps of each project (or of one)',
      request: { query: NowQuerySchema },
      responses: { 200: jsonResponse(NowResponseSchema, 'The state of each project, the one touched last first'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, refuseBlank);
      return c.json({ now: await projectStates(db, scope, query.project?.trim() ? query.project : undefined) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/episodes',
      summary: 'What happened: one episode per conversation session or dated note, newest first',
      request: { query: EpisodesQuerySchema },
      responses: { 200: jsonResponse(EpisodesResponseSchema, 'Episodes, newest first'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, refuseBlank);
      return c.json({ episodes: await listEpisodes(db, scope, query.project?.trim() ? query.project : undefined, query.limit) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/lessons',
      summary: 'Rules, how-tos and lessons, with when they apply and why, newest first',
      request: { query: LessonsQuerySchema },
      responses: { 200: jsonResponse(LessonsResponseSchema, 'Lessons, newest first'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, refuseBlank);
      return c.json({ lessons: await listLessons(db, scope, query.project?.trim() ? query.project : undefined, query.limit) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/intentions',
      summary: 'Promises and plans of one status (default open), those due soonest first',
      request: { query: IntentionsQuerySchema },
      responses: { 200: jsonResponse(IntentionsResponseSchema, 'Intentions'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, refuseBlank);
      return c.json({ intentions: await listIntentions(db, scope, query.status, query.limit) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/intentions/{intention_id}',
      summary: "Set an intention's status: done (default), dropped or open",
      request: { params: intentionParams, ...jsonBody(UpdateIntentionRequestSchema) },
      responses: { 200: jsonResponse(IntentionResponseSchema, 'The updated intention'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const { intention_id } = c.req.valid('param');
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space, refuseBlank);
      const intention = await setIntentionStatus(db, scope, intention_id, input.status);
      if (!intention) throw new HttpError('not_found', `No intention ${intention_id} in this space`);
      return c.json({ intention }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memory-health',
      summary: 'The last memory test: health is null before the first; a partly right answer counts half',
      request: { query: SpaceQuerySchema },
      responses: { 200: jsonResponse(MemoryHealthResponseSchema, 'The last test'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, refuseBlank);
      return c.json(await latestHealth(db, scope), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/memory-health/run',
      summary: "Test one space's memory now (account key): questions from what it learned in the last day, answered as ask answers",
      request: jsonBody(MemoryHealthRunRequestSchema),
      responses: { 200: jsonResponse(MemoryHealthResponseSchema, 'The test just run'), ...errorResponses },
    }),
    async (c) => {
      if (c.get('caller').limitedTo !== null) throw new HttpError('permission_denied', 'Only an account key can run the memory test');
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space, refuseBlank);
      return c.json(await checkHealth(operationsOf(deps), scope), 200);
    },
  );

  return app;
}

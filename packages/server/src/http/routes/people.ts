import {
  BriefQuerySchema,
  BriefResponseSchema,
  GraphQuerySchema,
  GraphResponseSchema,
  ProfileQuerySchema,
  ProfileResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { spaceGraph } from '../../brief/graph.js';
import { profileOf } from '../../brief/profile.js';
import { briefOf } from '../../brief/subject-brief.js';
import type { AppDeps, AppEnv } from '../context.js';
import { errorResponses, jsonResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

/** Routes of people and the graph: profiles, subject briefs, and who and what memories name together. */
export function peopleRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/profile',
      summary: 'What is known about a person (the owner when no subject is named): lasting and current facts',
      request: { query: ProfileQuerySchema },
      responses: { 200: jsonResponse(ProfileResponseSchema, 'The profile'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      return c.json(await profileOf(db, scope, query.subject), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/brief',
      summary: 'A short summary of a subject from its most telling memories, and the memories',
      request: { query: BriefQuerySchema },
      responses: { 200: jsonResponse(BriefResponseSchema, 'The brief'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      return c.json(await briefOf(db, scope, query.subject, query.limit), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/graph',
      summary: 'The people, places, organisations and things memories name, joined where one memory names both',
      request: { query: GraphQuerySchema },
      responses: {
        200: jsonResponse(GraphResponseSchema, 'Nodes (most memories first) and edges, each with the memories behind it'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      return c.json(await spaceGraph(db, scope, query.limit), 200);
    },
  );

  return app;
}

import type { ErrorType } from '@engram/protocol';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { DomainError } from '../domain-error.js';
import { consoleRoutes } from './console.js';
import type { AppDeps, AppEnv } from './context.js';
import { meterOf } from './context.js';
import { fromZodError, HttpError, isTransientStoreError, toHttpError } from './errors.js';
import { authenticate, idempotency, rateLimit, requestId, usageHeaders } from './middleware.js';
import { readBody } from './read-body.js';
import { RequestLog, requestLogger } from './request-log.js';
import { accountKeyRoutes } from './routes/account-keys.js';
import { briefingRoutes } from './routes/briefing.js';
import { exportRoutes } from './routes/export.js';
import { fileRoutes } from './routes/files.js';
import { keyRoutes } from './routes/keys.js';
import { memoryRoutes } from './routes/memories.js';
import { peopleRoutes } from './routes/people.js';
import { readinessRoutes } from './routes/readiness.js';
import { recallRoutes } from './routes/recall.js';
import { requestRoutes } from './routes/requests.js';
import { sourceRoutes } from './routes/sources.js';
import { spaceRoutes } from './routes/spaces.js';
import { UPLOAD_FORM_SLACK, UPLOAD_PATH, uploadRoutes } from './routes/uploads.js';

const SERVER_VERSION = '0.1.0';

/** Statuses Hono itself raises, as the API's error types. */
const HONO_ERRORS: Record<number, ErrorType> = {
  400: 'invalid_request',
  401: 'authentication_error',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** Engram's HTTP app: every route of /v1 behind its middleware, the error shape in one place. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw fromZodError(result.error, result.target);
    },
  });

  app.use('*', requestId());
  app.get('/healthz', (c) => c.json({ ok: true as const }));
  app.route('/', readinessRoutes(deps));
  app.route('/', consoleRoutes());
  app.doc31('/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Engram',
      version: SERVER_VERSION,
      description: 'Per-user long-term memory for AI apps. Every path needs a bearer key except /healthz and this document.',
    },
    security: [{ bearer: [] }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  // Browsers holding a limited key call Engram directly. Keys travel in a header, never in
  // cookies, so any origin may call unless the operator narrows it.
  app.use(
    '/v1/*',
    cors({
      origin: deps.config.corsOrigins === '*' ? '*' : deps.config.corsOrigins.split(',').map((origin) => origin.trim()),
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowHeaders: ['Authorization', 'Content-Type', 'X-Memory-Space', 'Idempotency-Key'],
      exposeHeaders: [
        'X-Request-ID',
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'Idempotent-Replayed',
        'X-Should-Retry',
        ...['Plan', 'State', 'Learned-Tokens', 'Included-Tokens', 'Waiting-Tokens', 'Answers', 'Included-Answers'].map(
          (name) => `X-Memory-Usage-${name}`,
        ),
      ],
      maxAge: 600,
    }),
  );
  // Logged once answered (authenticated calls only); the buffer writes in batches, off the call's path.
  const requestLog = deps.requestLog ?? new RequestLog(deps.db, { days: deps.config.requestLogDays });
  const logCall = requestLogger({ log: requestLog });
  app.use('/v1/*', (c, next) => (c.req.path === '/v1/openapi.json' ? next() : logCall(c, next)));
  // The OpenAPI document is public; every other /v1 call passes auth, its rate limit and usage headers.
  const keyed = [
    // On the embedded store, calls that come together are admitted in one statement (http/admission.ts).
    authenticate({ db: deps.db, now: deps.now, grouped: deps.config.databaseUrl === null }),
    rateLimit({ db: deps.db, accountRpm: deps.config.accountRpm }),
    usageHeaders({ meter: meterOf(deps) }),
  ];
  for (const middleware of keyed) {
    app.use('/v1/*', (c, next) => (c.req.path === '/v1/openapi.json' ? next() : middleware(c, next)));
  }
  // Read whole before anything looks at it, from Node's stream (http/read-body.ts).
  const jsonBody = readBody({ maxBytes: deps.config.maxBodyBytes, tooLarge: `The body is over ${deps.config.maxBodyBytes} bytes` });
  // Uploads have their own limit (ENGRAM_UPLOAD_MAX_BYTES), which may be larger or smaller than a JSON body's.
  const uploadBodyLimit = bodyLimit({
    maxSize: deps.config.uploadMaxBytes + UPLOAD_FORM_SLACK,
    onError: () => {
      throw new HttpError('payload_too_large', `The file is over the upload limit of ${deps.config.uploadMaxBytes} bytes`);
    },
  });
  app.use('/v1/*', (c, next) => (c.req.path === UPLOAD_PATH ? uploadBodyLimit(c, next) : jsonBody(c, next)));
  app.use('/v1/*', idempotency({ db: deps.db }));

  app.route('/', uploadRoutes(deps));
  app.route('/', memoryRoutes(deps));
  app.route('/', sourceRoutes(deps));
  app.route('/', fileRoutes(deps));
  app.route('/', recallRoutes(deps));
  app.route('/', keyRoutes(deps));
  app.route('/', spaceRoutes(deps));
  app.route('/', peopleRoutes(deps));
  app.route('/', briefingRoutes(deps));
  app.route('/', exportRoutes(deps));
  app.route('/', requestRoutes({ ...deps, requestLog }));
  app.route('/', accountKeyRoutes(deps));

  app.notFound((c) => {
    c.set('errorType', 'not_found');
    const body = { error: { type: 'not_found', message: `No route ${c.req.method} ${c.req.path}`, request_id: c.get('requestId') } };
    return c.json(body, 404);
  });

  app.onError((error, c) => {
    const request = c.get('requestId');
    let status: number;
    let type: ErrorType;
    let message: string;
    let details: unknown;
    if (error instanceof DomainError) {
      const answer = toHttpError(error);
      ({ status, type, message, details } = answer);
      // Clients retry 409 by default; a conflict that no retry can resolve says so.
      if (!answer.retryable) c.header('X-Should-Retry', 'false');
      for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
    } else if (error instanceof HTTPException && HONO_ERRORS[error.status]) {
      status = error.status;
      type = HONO_ERRORS[error.status]!;
      message = status === 415 ? 'Send a JSON body with Content-Type: application/json' : error.message || 'The request is not valid';
    } else if (error instanceof SyntaxError) {
      status = 400;
      type = 'invalid_request';
      message = 'The body is not valid JSON';
    } else if (isTransientStoreError(error)) {
      // Rolled back whole: the same request may be sent again (clients do, after Retry-After).
      console.error(`[engram] ${request} ${c.req.method} ${c.req.path} met a busy store:`, (error as Error).message);
      status = 503;
      type = 'unavailable';
      message = 'The store was busy; try again in a moment';
      c.header('Retry-After', '1');
    } else {
      // Never leak internals: the details stay in the server's log under the request id.
      console.error(`[engram] ${request} ${c.req.method} ${c.req.path} failed:`, error);
      status = 500;
      type = 'internal_error';
      message = 'Something went wrong on our side; the request id finds it in the server log';
    }
    c.set('errorType', type);
    const body: Record<string, unknown> = { type, message, request_id: request };
    if (details !== undefined) body.details = details;
    return c.json({ error: body }, status as 400);
  });

  return app;
}

export { fromZodError };

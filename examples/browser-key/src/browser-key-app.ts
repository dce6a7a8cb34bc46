import { fileURLToPath } from 'node:url';
import type { Engram } from '@engram/client';
import { engramKeys, engramProxy } from '@engram/express';
import type { Request } from 'express';
import express from 'express';

const page = fileURLToPath(new URL('../public/index.html', import.meta.url));

/** Who is signed in. A real app reads its session; this example keeps the user's name in a cookie. */
function userOf(request: Request): string | undefined {
  const cookie = request.get('cookie') ?? '';
  const match = /(?:^|;\s*)user=([^;]+)/.exec(cookie);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * A backend that gives the signed-in user's page a key limited to that user's space. The page
 * calls Engram directly with it, at `engramURL` (Engram answers browsers' CORS preflights); with
 * `proxy: true` it calls through `engramProxy()` on this same origin instead, for an Engram the
 * browser cannot reach. The account key never leaves this process.
 */
export function createBrowserKeyApp({ engram, engramURL, proxy = false }: { engram: Engram; engramURL: string; proxy?: boolean }) {
  const app = express();
  app.get('/login', (request, response) => {
    const user = String(request.query.user ?? '').trim();
    if (!user) {
      response.status(400).send('Give ?user=NAME');
      return;
    }
    response.cookie('user', user, { httpOnly: true, sameSite: 'strict' }).redirect('/');
  });
  const keys = engramKeys({
    client: engram,
    spaceFor: userOf,
    rpm: 60,
    ttl: 15 * 60_000,
    route: '/key',
    publicBaseURL: proxy ? '/engram' : engramURL,
  });
  if (proxy) app.use('/engram', keys, engramProxy());
  else app.use('/engram', keys);
  app.post('/logout', async (request, response) => {
    response.clearCookie('user').sendStatus(204);
  });
  app.get('/', (_request, response) => {
    response.sendFile(page);
  });
  return app;
}

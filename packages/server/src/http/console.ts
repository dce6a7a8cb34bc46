import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { AppEnv } from './context.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Everything the console loads comes from this server; it calls this server's API only. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the built console is: dist/console beside the built server (also found when running from src/). */
export function consoleDir(): string | null {
  const candidates = ['../console/', '../../dist/console/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}

/**
 * Serves the console's static files at /console with their content types and a CSP header;
 * any other path under /console gets index.html, so that the console's own paths load it.
 */
export function consoleRoutes({ dir = consoleDir() }: { dir?: string | null } = {}) {
  const app = new Hono<AppEnv>();
  const secure = (c: { header: (name: string, value: string) => void }) => {
    c.header('Content-Security-Policy', CONSOLE_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  };
  app.get('/console', (c) => c.redirect('/console/', 301));
  app.get('/console/*', async (c) => {
    secure(c);
    if (!dir) return c.text('The console is not built: run npm run build', 404);
    const relative = decodeURIComponent(c.req.path.slice('/console/'.length));
    const file = normalize(join(dir, relative));
    const inside = file.startsWith(dir.endsWith(sep) ? dir : dir + sep);
    const asset = inside && relative !== '' && extname(relative) !== '';
    if (asset) {
      const body = await readFile(file).catch(() => null);
      if (body) {
        const hashed = relative.startsWith('assets/');
        c.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        c.header('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
        return c.body(body);
      }
      if (relative.startsWith('assets/')) return c.text('Not found', 404);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(await readFile(join(dir, 'index.html'), 'utf8'));
  });
  return app;
}

import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Engram } from '@engram/client';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createBrowserKeyApp } from '../src/browser-key-app.js';
import { BROWSER_TEST_KEY } from './setup.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// On CI a missing browser is a failure; on a laptop without one, the test says so and skips.
const runs = existsSync(CHROMIUM) || Boolean(process.env.CI);

const engram = new Engram({ apiKey: BROWSER_TEST_KEY, baseURL: inject('browserEngramUrl'), logger: null });
let url = '';
let server: import('node:http').Server;
let browser: Browser | undefined;

beforeAll(async () => {
  server = await new Promise((resolve) => {
    const listening = createBrowserKeyApp({ engram, engramURL: inject('browserEngramUrl') }).listen(0, '127.0.0.1', () =>
      resolve(listening),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (runs) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it.skipIf(!runs)('a page gets a limited key from its backend, saves and recalls with it, and never sees the account key', async () => {
  const user = `alice-${crypto.randomUUID()}`;
  const page = await browser!.newPage();
  const seen: string[] = []; // every header and body the page sent or received
  const authorizations: string[] = [];
  const origins = new Set<string>();
  const engramOrigin = new URL(inject('browserEngramUrl')).origin;
  page.on('request', (request) => {
    seen.push(JSON.stringify(request.headers()), request.postData() ?? '');
    const authorization = request.headers().authorization;
    if (authorization) {
      authorizations.push(authorization);
      // The key goes to Engram only, never back to the app.
      expect(new URL(request.url()).origin).toBe(engramOrigin);
    }
    origins.add(new URL(request.url()).origin);
  });
  page.on('response', async (response) => {
    seen.push(JSON.stringify(await response.allHeaders()));
    seen.push(await response.text().catch(() => ''));
  });

  await page.goto(`${url}/login?user=${user}`);
  await expect.poll(() => page.textContent('#status')).toMatch(new RegExp(`^Signed in as ${user}; key egs_`));

  await page.fill('#note', 'I am learning to play the cello.');
  await page.click('#save');
  await expect.poll(() => page.textContent('#saved'), { timeout: 20_000 }).toBe('Saved: finished');
  await page.fill('#question', 'What am I learning to play?');
  await page.click('#ask');
  await expect.poll(() => page.textContent('#answer'), { timeout: 10_000 }).toMatch(/cello/);

  // The page talked to its own backend (for the key) and to Engram directly, nothing else.
  expect([...origins].sort()).toEqual([url, engramOrigin].sort());
  // The page held a limited key only.
  expect(authorizations.length).toBeGreaterThanOrEqual(3);
  for (const authorization of authorizations) expect(authorization).toMatch(/^Bearer egs_/);
  const { keys } = await engram.keys.list({ space: user });
  expect(keys.map((key) => key.starts_with)).toEqual([authorizations[0]!.slice('Bearer '.length, 'Bearer '.length + 8)]);
  // The account key is nowhere in what the page saw, held or stored.
  seen.push(await page.content(), await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.cookie));
  for (const text of seen) expect(text).not.toContain(BROWSER_TEST_KEY);
  expect(seen.join('\n')).not.toContain('egk_');

  // What the page saved is in its user's space, and nobody else's.
  expect((await engram.sources.list({ space: user })).total).toBe(1);
  expect((await engram.context({ question: 'What am I learning to play?', space: `bob-${crypto.randomUUID()}` })).empty).toBe(true);
  await page.close();
});

it.skipIf(!runs)('a page with no signed-in user gets no key', async () => {
  const page = await browser!.newPage();
  const answer = await page.goto(`${url}/engram/key`);
  expect(answer?.status()).toBe(401);
  await page.close();
});

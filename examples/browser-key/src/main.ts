// Run: ENGRAM_API_KEY=egk_… npm start, then open http://127.0.0.1:3001/login?user=alice
import { Engram } from '@engram/client';
import { createBrowserKeyApp } from './browser-key-app.js';

const port = Number(process.env.PORT ?? 3001);
createBrowserKeyApp({ engram: new Engram(), engramURL: process.env.ENGRAM_BASE_URL ?? 'http://127.0.0.1:8787' }).listen(
  port,
  '127.0.0.1',
  () => {
    console.log(`Open http://127.0.0.1:${port}/login?user=alice`);
  },
);

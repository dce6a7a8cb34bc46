// Copies the built console (packages/console/dist) into dist/console, which `engram serve` serves at /console.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../console/dist/', import.meta.url));
const to = fileURLToPath(new URL('../dist/console/', import.meta.url));
rmSync(to, { recursive: true, force: true });
if (existsSync(from)) cpSync(from, to, { recursive: true });
else console.warn('[engram] the console is not built (npm run build -w @engram/console); /console will answer 404');

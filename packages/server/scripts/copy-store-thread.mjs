// Copies the embedded store's thread entry into dist/store: plain JavaScript kept beside the
// sources (src/store/embedded-thread.mjs), which tsc does not emit and a Worker loads as it is.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

mkdirSync(fileURLToPath(new URL('../dist/store/', import.meta.url)), { recursive: true });
copyFileSync(
  fileURLToPath(new URL('../src/store/embedded-thread.mjs', import.meta.url)),
  fileURLToPath(new URL('../dist/store/embedded-thread.mjs', import.meta.url)),
);

// Checks with @arethetypeswrong/cli that every packed public package resolves to types and code
// under both module systems: packages with a "require" condition are checked for CommonJS and
// ESM, the others (ESM only) under the esm-only profile. Packs into .packs/ first.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packAll, root } from './public-packages.mjs';

const destination = join(root, '.packs');
rmSync(destination, { recursive: true, force: true });
const attw = join(root, 'node_modules', '.bin', 'attw');
let failed = 0;
for (const packed of packAll(destination)) {
  const args = [packed.tarball, '--format', 'table-flipped', ...(packed.cjs ? [] : ['--profile', 'esm-only'])];
  try {
    const output = execFileSync(attw, args, { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
    console.log(output.trim());
  } catch (error) {
    failed += 1;
    console.log(`${error.stdout ?? ''}${error.stderr ?? ''}`.trim());
  }
  console.log(`${packed.name}: ${packed.cjs ? 'ESM and CommonJS' : 'ESM only'}\n`);
}
if (failed > 0) {
  console.error(`attw found problems in ${failed} package(s)`);
  process.exit(1);
}

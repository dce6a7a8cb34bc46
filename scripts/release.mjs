// `npm run release`: builds every package, packs each public one into .packs/, and, when
// NPM_TOKEN is set, publishes each tarball whose version the registry does not have yet, then
// tags the release (`changeset tag`). Without NPM_TOKEN it stops after packing and says so.
// Run `npx changeset version` (and commit) before, so the versions and CHANGELOGs are set.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { packAll, root } from './public-packages.mjs';

const run = (command, args, options = {}) => execFileSync(command, args, { cwd: root, stdio: 'inherit', ...options });

run('npm', ['run', 'build']);
const destination = join(root, '.packs');
rmSync(destination, { recursive: true, force: true });
const packed = packAll(destination);
for (const pkg of packed)
  console.log(
    `packed ${pkg.name}@${pkg.version} → ${relative(root, pkg.tarball)} (${pkg.files.length} files, ${(pkg.size / 1024).toFixed(1)} kB)`,
  );

const token = process.env.NPM_TOKEN?.trim();
if (!token) {
  console.log('NPM_TOKEN is not set: packed only, nothing published.');
  process.exit(0);
}

// A throwaway npmrc carries the token, so it never lands in the repository or the user's own.
const configDir = mkdtempSync(join(tmpdir(), 'engram-release-'));
const userconfig = join(configDir, '.npmrc');
writeFileSync(userconfig, `//registry.npmjs.org/:_authToken=${token}\n`, { mode: 0o600 });
const env = { ...process.env, npm_config_userconfig: userconfig };
try {
  let published = 0;
  for (const pkg of packed) {
    if (isPublished(pkg.name, pkg.version, env)) {
      console.log(`${pkg.name}@${pkg.version} is already on the registry; skipped`);
      continue;
    }
    run('npm', ['publish', pkg.tarball, '--access', 'public'], { env });
    published += 1;
  }
  if (published > 0) run('npx', ['changeset', 'tag']);
  console.log(`published ${published} package(s)`);
} finally {
  rmSync(configDir, { recursive: true, force: true });
}

function isPublished(name, version, env) {
  try {
    const output = execFileSync('npm', ['view', `${name}@${version}`, 'version'], {
      cwd: root,
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return output.trim() === version;
  } catch {
    return false;
  }
}

// Packs every public package, installs the tarballs into a fresh project outside the workspace
// (dependencies and peers from the registry, no workspace links), and starts `npx engram serve`
// from the installed server on the embedded store. The tests reach that project through inject().
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAll, root } from '../../scripts/public-packages.mjs';

/** What the tests get from inject('published'). */
export interface PublishedProject {
  /** The temporary project the tarballs are installed in. */
  dir: string;
  /** Where the installed `engram serve` listens. */
  baseUrl: string;
  /** The owner's account key of that server. */
  apiKey: string;
  /** The packed packages: name, whether they answer require(), and their tarballs' files. */
  packages: { name: string; version: string; cjs: boolean; files: string[]; size: number }[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    published: PublishedProject;
  }
}

const apiKey = 'egk_published_check_0123456789abcdef';
let server: ChildProcess | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'engram-published-'));
  const packed = packAll(join(dir, 'tarballs'));
  const app = join(dir, 'app');
  mkdirSync(app);

  // Each tarball is a dependency, and overrides make the packages' own @engram/* dependencies
  // resolve to the tarballs too. Peers come from the registry within each package's own range.
  const tarballs = Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
  const peers: Record<string, string> = {};
  for (const pkg of packed) {
    for (const [name, range] of Object.entries<string>(pkg.manifest.peerDependencies ?? {})) {
      if (!name.startsWith('@engram/')) peers[name] = range;
    }
  }
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'engram-published-check',
        private: true,
        dependencies: { ...tarballs, ...peers },
        devDependencies: {
          typescript: rootManifest.devDependencies.typescript,
          '@types/node': rootManifest.devDependencies['@types/node'],
        },
        overrides: tarballs,
      },
      null,
      2,
    )}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'], {
    cwd: app,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 300_000,
  });

  const baseUrl = await startInstalledServer(app);
  project.provide('published', {
    dir: app,
    baseUrl,
    apiKey,
    packages: packed.map(({ name, version, cjs, files, size }) => ({ name, version, cjs, files, size })),
  });
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    // npx runs engram as its child: the signal goes to the process group this setup started.
    if (server.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  if (dir && !process.env.ENGRAM_KEEP_PUBLISHED) rmSync(dir, { recursive: true, force: true });
}

/** Starts `npx engram serve` in the project on a free port (ENGRAM_PORT=0) and reads its address. */
function startInstalledServer(app: string): Promise<string> {
  const child = spawn('npx', ['--no-install', 'engram', 'serve'], {
    cwd: app,
    env: {
      ...process.env,
      ENGRAM_PORT: '0',
      ENGRAM_HOST: '127.0.0.1',
      ENGRAM_DATA_DIR: join(app, '.engram'),
      ENGRAM_BOOTSTRAP_KEY: apiKey,
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  server = child;
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the installed engram did not start in 180 s:\n${stderr}`)), 180_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve((match[1] ?? '').replace(/\/$/, ''));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the installed engram exited with ${code}:\n${stderr}`));
    });
  });
}

// The workspace's public packages (packages/* without "private"), so every release step and
// whole-repo test covers a new package as soon as its folder exists.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Every public package under packages/, in a stable order.
 * @returns {{ dir: string, name: string, version: string, manifest: Record<string, any>, cjs: boolean }[]}
 */
export function publicPackages() {
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir)
    .filter((entry) => existsSync(join(packagesDir, entry, 'package.json')))
    .map((entry) => {
      const dir = join(packagesDir, entry);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return { dir, name: manifest.name, version: manifest.version, manifest, cjs: hasRequire(manifest) };
    })
    .filter((pkg) => !pkg.manifest.private)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether the package's main entry answers `require()` (a "require" condition in its exports map). */
function hasRequire(manifest) {
  const entry = manifest.exports?.['.'];
  return typeof entry === 'object' && entry !== null && 'require' in entry;
}

/**
 * Packs every public package (built beforehand) into a folder with `npm pack`.
 * @param {string} destination
 * @returns {{ name: string, version: string, cjs: boolean, manifest: Record<string, any>, tarball: string, size: number, unpackedSize: number, files: string[] }[]}
 */
export function packAll(destination) {
  mkdirSync(destination, { recursive: true });
  return publicPackages().map((pkg) => {
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: pkg.dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(output.slice(output.indexOf('[')));
    return {
      name: pkg.name,
      version: pkg.version,
      cjs: pkg.cjs,
      manifest: pkg.manifest,
      tarball: join(destination, packed.filename),
      size: packed.size,
      unpackedSize: packed.unpackedSize,
      files: packed.files.map((file) => file.path),
    };
  });
}

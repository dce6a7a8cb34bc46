// What every public package must be as published: checked on the tarballs and their installed
// copies, for each package the workspace has (a new package is covered without a new test).
import { describe, expect, it } from 'vitest';
import { published, runScript } from './helpers.js';

const { packages } = published();

describe.each(packages)('the tarball of $name', (pkg) => {
  it('ships its build, README, LICENSE and package.json, and no tests, fixtures or source maps', () => {
    expect(pkg.files).toContain('package.json');
    expect(pkg.files).toContain('README.md');
    expect(pkg.files).toContain('LICENSE');
    expect(pkg.files.some((file) => file.startsWith('dist/'))).toBe(true);
    const unwanted = pkg.files.filter((file) =>
      /(^|\/)(test|tests|fixtures|__tests__)\/|\.test\.|\.test-d\.|\.map$|^src\/|tsconfig/.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it('describes itself for the registry: MIT, repository, engines, exports with types', async () => {
    const manifest = await runScript(
      'mjs',
      `
      import { readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify(JSON.parse(readFileSync(require.resolve('${pkg.name}/package.json'), 'utf8'))));
    `,
    );
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository.url).toMatch(/^git\+https:\/\//);
    expect(manifest.repository.directory).toMatch(/^packages\//);
    expect(manifest.engines.node).toMatch(/^>=20/);
    expect(manifest.exports['.'].import.types).toMatch(/\.d\.ts$/);
    if (pkg.cjs) expect(manifest.exports['.'].require.types).toMatch(/\.d\.cts$/);
    expect(
      Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@engram/') && manifest.dependencies[name] !== pkg.version),
    ).toEqual([]);
  });

  it('loads with import, and with require the same exports where it supports CommonJS', async () => {
    const esm = await runScript(
      'mjs',
      `const m = await import('${pkg.name}'); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== 'default').sort()));`,
    );
    expect(esm.length).toBeGreaterThan(0);
    if (!pkg.cjs) return;
    const cjs = await runScript('cjs', `console.log(JSON.stringify(Object.keys(require('${pkg.name}')).sort()));`);
    expect(cjs).toEqual(esm);
  });
});

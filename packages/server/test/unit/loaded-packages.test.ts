import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dist = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;

/**
 * The packages a fresh Node process loads when it imports one built module: a resolve hook
 * (module.register) records every bare specifier resolved, and the module is imported after it.
 */
async function packagesLoadedBy(moduleUrl: string): Promise<Set<string>> {
  const hook = `
    export async function resolve(specifier, context, next) {
      if (!specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) {
        const parts = specifier.split('/');
        console.log('package ' + (specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]));
      }
      return next(specifier, context);
    }`;
  const script = `
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
    await import(${JSON.stringify(moduleUrl)});`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  return new Set(stdout.split('\n').flatMap((line) => (line.startsWith('package ') ? [line.slice(8)] : [])));
}

describe('what the built server loads before it is asked for anything', () => {
  it('leaves the page and Word parsers and the model client unloaded, and loads what recall needs', async () => {
    const loaded = await packagesLoadedBy(dist('server.js'));
    // The hook sees the server's own packages: the check is not vacuous.
    expect(loaded).toContain('hono');
    expect(loaded).toContain('compromise');
    for (const lazy of ['openai', 'mammoth', 'linkedom', '@mozilla/readability', 'unpdf']) expect(loaded).not.toContain(lazy);
  }, 30_000);

  it('loads the page and Word parsers when a page is read', async () => {
    const loaded = await packagesLoadedBy(
      `data:text/javascript,${encodeURIComponent(
        `import { parsePage } from ${JSON.stringify(dist('read/read-page.js'))};
         await parsePage('html', new TextEncoder().encode('<p>A page.</p>'), 'utf-8');`,
      )}`,
    );
    expect(loaded).toContain('linkedom');
    expect(loaded).toContain('@mozilla/readability');
  }, 30_000);
});

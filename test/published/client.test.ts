// @engram/client as installed from its tarball, against the installed server, from import and require.
import { describe, expect, it } from 'vitest';
import { freshSpace, runScript } from './helpers.js';

// Saves a note, waits until it is learned, asks about it, and tells a missing source by its error class.
const check = (space: string) => `
  const engram = new Engram();
  const user = engram.forSpace(${JSON.stringify(space)});
  const { source } = await user.memories.add({ text: 'Priya keeps her climbing shoes in the blue locker at the gym.' }, { wait: true });
  const { answer, memories } = await user.ask({ question: 'Where does Priya keep her climbing shoes?' });
  let missing = null;
  try { await user.sources.get('src_doesnotexist0000') } catch (error) { missing = { notFound: NotFoundError.isInstance(error), status: error.status } }
  console.log(JSON.stringify({ status: source.status, answer, remembered: memories.map((memory) => memory.text), missing }));
`;

describe('@engram/client as published', () => {
  it.each([
    ['import', 'mjs', (space: string) => `import { Engram, NotFoundError } from '@engram/client';\n${check(space)}`],
    [
      'require',
      'cjs',
      (space: string) => `const { Engram, NotFoundError } = require('@engram/client');\n(async () => {${check(space)}})();`,
    ],
  ] as const)('saves, learns and answers from %s', async (_how, extension, source) => {
    const result = await runScript(extension, source(freshSpace('client')));
    expect(result.status).toBe('finished');
    expect(result.remembered.join(' ')).toMatch(/blue locker/);
    expect(result.missing).toEqual({ notFound: true, status: 404 });
  });
});

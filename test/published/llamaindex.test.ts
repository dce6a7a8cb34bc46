// @engram/llamaindex as installed from its tarball (with @llamaindex/core from the registry),
// against the installed server, from import and require: the retriever finds a learned fact first.
import { describe, expect, it } from 'vitest';
import { freshSpace, runScript } from './helpers.js';

const check = (space: string) => `
  const engram = new Engram();
  await engram.forSpace(${JSON.stringify(space)}).memories.add({ text: 'Oskar grows chili peppers on his windowsill.' }, { wait: true });
  const nodes = await new EngramRetriever({ client: engram, space: ${JSON.stringify(space)}, k: 3 }).retrieve({ query: 'What does Oskar grow?' });
  console.log(JSON.stringify({ first: nodes[0].node.text, id: Number.isInteger(nodes[0].node.metadata.memory_id), score: typeof nodes[0].score }));
`;

describe('@engram/llamaindex as published', () => {
  it.each([
    [
      'import',
      'mjs',
      (space: string) => `import { Engram } from '@engram/client';\nimport { EngramRetriever } from '@engram/llamaindex';\n${check(space)}`,
    ],
    [
      'require',
      'cjs',
      (space: string) =>
        `const { Engram } = require('@engram/client');\nconst { EngramRetriever } = require('@engram/llamaindex');\n(async () => {${check(space)}})();`,
    ],
  ] as const)('retrieves a user memory as scored nodes from %s', async (_how, extension, source) => {
    const result = await runScript(extension, source(freshSpace('llamaindex')));
    expect(result).toEqual({ first: expect.stringMatching(/chili/u), id: true, score: 'number' });
  });
});

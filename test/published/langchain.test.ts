// @engram/langchain as installed from its tarball (with @langchain/core from the registry), against
// the installed server, from import and require: the retriever finds a learned fact first.
import { describe, expect, it } from 'vitest';
import { freshSpace, runScript } from './helpers.js';

const check = (space: string) => `
  const user = new Engram().forSpace(${JSON.stringify(space)});
  await user.memories.add({ text: 'Wanda repairs vintage radios in her garage.' }, { wait: true });
  const documents = await new EngramRetriever({ client: user, k: 3 }).invoke('What does Wanda repair?');
  console.log(JSON.stringify({ first: documents[0].pageContent, id: Number.isInteger(documents[0].metadata.memory_id), tools: engramTools({ client: user }).map((tool) => tool.name).sort() }));
`;

describe('@engram/langchain as published', () => {
  it.each([
    [
      'import',
      'mjs',
      (space: string) =>
        `import { Engram } from '@engram/client';\nimport { EngramRetriever, engramTools } from '@engram/langchain';\n${check(space)}`,
    ],
    [
      'require',
      'cjs',
      (space: string) =>
        `const { Engram } = require('@engram/client');\nconst { EngramRetriever, engramTools } = require('@engram/langchain');\n(async () => {${check(space)}})();`,
    ],
  ] as const)('retrieves a user memory with LangChain documents from %s', async (_how, extension, source) => {
    const result = await runScript(extension, source(freshSpace('langchain')));
    expect(result.first).toMatch(/radios/u);
    expect(result.id).toBe(true);
    expect(result.tools).toEqual(['askMemory', 'remember', 'searchMemory']);
  });
});

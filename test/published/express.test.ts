// @engram/express as installed from its tarball (with the installed @engram/client and Express
// from the registry), against the installed server, from import and require.
import { describe, expect, it } from 'vitest';
import { freshSpace, runScript } from './helpers.js';

// An Express app hands the signed-in user (named by a header here) a key limited to their space;
// the key saves a note there, and the owner's key reads the same space's sources.
const check = (space: string) => `
  const app = express();
  app.use(engramKeys({ client: new Engram(), spaceFor: (request) => request.get('x-user'), route: '/engram/key' }));
  const listener = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  const at = 'http://127.0.0.1:' + listener.address().port;
  const anonymous = await fetch(at + '/engram/key');
  const handed = await (await fetch(at + '/engram/key', { headers: { 'x-user': ${JSON.stringify(space)} } })).json();
  const limited = new Engram({ apiKey: handed.key, baseURL: handed.base_url });
  await limited.memories.add({ text: 'Tomas waters the fern on the balcony every Sunday.' });
  const { sources } = await new Engram().forSpace(${JSON.stringify(space)}).sources.list();
  listener.close();
  console.log(JSON.stringify({ anonymous: anonymous.status, space: handed.space, limitedKey: handed.key.slice(0, 4), sources: sources.length }));
`;

describe('@engram/express as published', () => {
  it.each([
    [
      'import',
      'mjs',
      (space: string) =>
        `import express from 'express';\nimport { Engram } from '@engram/client';\nimport { engramKeys } from '@engram/express';\n${check(space)}`,
    ],
    [
      'require',
      'cjs',
      (space: string) =>
        `const express = require('express');\nconst { Engram } = require('@engram/client');\nconst { engramKeys } = require('@engram/express');\n(async () => {${check(space)}})();`,
    ],
  ] as const)('hands each signed-in user a limited key from %s', async (_how, extension, source) => {
    const space = freshSpace('express');
    const result = await runScript(extension, source(space));
    expect(result).toEqual({ anonymous: 401, space, limitedKey: 'egs_', sources: 1 });
  });
});

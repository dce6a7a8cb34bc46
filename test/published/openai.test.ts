// @engram/openai as installed from its tarball (with openai from the registry), against the
// installed server, from import and require: a wrapped client that cannot reach Engram still answers.
import { describe, expect, it } from 'vitest';
import { runScript } from './helpers.js';

// A fake OpenAI-compatible server on 127.0.0.1 answers; Engram is pointed at a closed port, so the
// wrapper must fail open within its timeout and the model's answer still comes back.
const check = `
  const model = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello there.', refusal: null } }] }));
    });
  });
  await new Promise((resolve) => model.listen(0, '127.0.0.1', resolve));
  const openai = withEngram(new OpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:' + model.address().port + '/v1' }), {
    client: new Engram({ baseURL: 'http://127.0.0.1:9', maxRetries: 0 }), space: 'nobody', timeout: 500,
  });
  const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
  await openai.flush();
  model.close();
  console.log(JSON.stringify({ text: completion.choices[0].message.content }));
`;

describe('@engram/openai as published', () => {
  it.each([
    [
      'import',
      'mjs',
      `import http from 'node:http';\nimport OpenAI from 'openai';\nimport { Engram } from '@engram/client';\nimport { withEngram } from '@engram/openai';\n${check}`,
    ],
    [
      'require',
      'cjs',
      `const http = require('node:http');\nconst OpenAI = require('openai');\nconst { Engram } = require('@engram/client');\nconst { withEngram } = require('@engram/openai');\n(async () => {${check}})();`,
    ],
  ] as const)('answers through a wrapped client from %s, failing open when Engram is down', async (_how, extension, source) => {
    expect(await runScript(extension, source)).toEqual({ text: 'Hello there.' });
  });
});

// @engram/protocol as installed from its tarball, from import and require.
import { describe, expect, it } from 'vitest';
import { runScript } from './helpers.js';

const check = `
  const request = { messages: [{ role: 'user', content: 'The kettle in the office is broken again.' }] };
  const body = protocol.AddMemoryRequestSchema.safeParse(request);
  const bad = protocol.ErrorTypeSchema.safeParse('not_an_error_type');
  console.log(JSON.stringify({ ok: body.success, bad: bad.success, notFound: protocol.ERROR_STATUS.not_found, prefix: protocol.KEY_PREFIX }));
`;

describe('@engram/protocol as published', () => {
  it.each([
    ['import', 'mjs', `import * as protocol from '@engram/protocol';\n${check}`],
    ['require', 'cjs', `const protocol = require('@engram/protocol');\n${check}`],
  ] as const)('validates requests with its schemas from %s', async (_how, extension, source) => {
    const result = await runScript(extension, source);
    expect(result).toEqual({ ok: true, bad: false, notFound: 404, prefix: { account: 'egk_', limited: 'egs_' } });
  });
});

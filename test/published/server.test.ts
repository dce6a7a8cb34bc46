// @engram/server as installed from its tarball: the engram command and the embedding exports.
import { describe, expect, it } from 'vitest';
import { published, runBin, runScript } from './helpers.js';

describe('@engram/server as published', () => {
  it('puts the engram command on npx, with its usage', async () => {
    const { stdout } = await runBin('engram', ['--help']);
    expect(stdout).toMatch(/^engram: /);
    expect(stdout).toMatch(/engram serve/);
  });

  it('answers on the port npx engram serve listens on, with the bootstrap key', async () => {
    const { baseUrl, apiKey } = published();
    const health = await fetch(`${baseUrl}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    const spaces = await fetch(`${baseUrl}/v1/spaces`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(spaces.status).toBe(200);
  });

  it('embeds: startServer runs the service in a program, on a store in memory', async () => {
    const result = await runScript(
      'mjs',
      `
      import { loadConfig, startServer } from '@engram/server';
      const server = await startServer(loadConfig({ ENGRAM_DATA_DIR: 'memory://', ENGRAM_PORT: '0', ENGRAM_WORKERS: '0' }));
      const health = await (await fetch(server.url + '/healthz')).json();
      await server.close();
      console.log(JSON.stringify({ url: /^http:\\/\\/127\\.0\\.0\\.1:\\d+$/.test(server.url), health }));
    `,
    );
    expect(result).toEqual({ url: true, health: { ok: true } });
  });
});

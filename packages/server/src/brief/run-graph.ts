import { writeFile } from 'node:fs/promises';
import type { GraphResponse } from '@engram/protocol';
import { graphHtml, graphSvg } from './draw-graph.js';

/** What `engram graph` is asked to draw. */
export interface DrawGraphOptions {
  /** The space to draw ('' or left out: the owner's own memory, or a limited key's space). */
  space?: string;
  /** Where to write the drawing; standard output when left out. */
  out?: string;
  /** svg or html; by default html when `out` ends in .html or .htm, else svg. */
  format?: string;
  /** At most this many nodes (1 to 1000; the server's default of 200 when left out). */
  limit?: string;
  /** The server (ENGRAM_BASE_URL, default http://127.0.0.1:8787). */
  baseUrl?: string;
  /** An account key, or a key limited to the space (ENGRAM_API_KEY). */
  apiKey?: string;
}

/**
 * `engram graph`: reads a space's graph from a running server (GET /v1/graph, so that it never
 * opens a store the server holds) and draws it as an SVG image or an HTML page. Returns what
 * it wrote: the format and how many nodes and edges.
 */
export async function drawGraph(options: DrawGraphOptions): Promise<{ format: 'svg' | 'html'; nodes: number; edges: number }> {
  const format = options.format ?? (/\.html?$/i.test(options.out ?? '') ? 'html' : 'svg');
  if (format !== 'svg' && format !== 'html') throw new Error('--format takes svg or html');
  const base = (options.baseUrl ?? process.env.ENGRAM_BASE_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  const key = options.apiKey ?? process.env.ENGRAM_API_KEY;
  if (!key) throw new Error('set ENGRAM_API_KEY to a key of the server (an account key, or one limited to the space)');
  const query = new URLSearchParams();
  if (options.space !== undefined) query.set('space', options.space);
  if (options.limit !== undefined) query.set('limit', options.limit);
  const response = await fetch(`${base}/v1/graph?${query}`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json().catch(() => null)) as (GraphResponse & { error?: { message: string } }) | null;
  if (!response.ok || body === null) {
    throw new Error(`the server answered ${response.status}: ${body?.error?.message ?? response.statusText}`);
  }
  const title = `Engram graph${options.space ? ` of ${options.space}` : ''}`;
  const drawing = format === 'html' ? graphHtml(body, { title }) : graphSvg(body, { title });
  if (options.out) await writeFile(options.out, drawing);
  else process.stdout.write(drawing);
  return { format, nodes: body.nodes.length, edges: body.edges.length };
}

import type { GraphEdge, GraphNode } from '@engram/protocol';
import { UndirectedGraph } from 'graphology';
import { circular } from 'graphology-layout';
import forceAtlas2Module from 'graphology-layout-forceatlas2';

// A CommonJS package: Node hands its module.exports over as the default import, where the
// published types expect it under `default`.
const forceAtlas2 = ((forceAtlas2Module as { default?: unknown }).default ?? forceAtlas2Module) as typeof forceAtlas2Module.default;

/** A graph as GET /v1/graph answers it. */
export interface DrawableGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** A node placed on the drawing, in pixels. */
export interface PlacedNode extends GraphNode {
  x: number;
  y: number;
  radius: number;
}

/** How big the drawing is and how long the layout runs. */
export interface DrawOptions {
  width?: number;
  height?: number;
  /** ForceAtlas2 iterations (by default 3,000 for a small graph, down to 300 for a large one). */
  iterations?: number;
  /** A title written above the drawing. */
  title?: string;
}

const COLOURS: Record<GraphNode['type'], string> = { person: '#4e79a7', place: '#59a14f', org: '#f28e2b', thing: '#9c755f' };
const MARGIN = 60;

/**
 * Places the nodes with ForceAtlas2 (graphology-layout-forceatlas2) from a circle
 * (graphology-layout), so that the same graph is always drawn the same way; nodes joined by
 * many memories pull together. Positions are scaled into the drawing, and a node's radius
 * grows with its memories.
 */
export function layoutGraph(graph: DrawableGraph, options: DrawOptions = {}): PlacedNode[] {
  const width = options.width ?? 1200;
  const height = options.height ?? 900;
  if (graph.nodes.length === 0) return [];
  const layout = new UndirectedGraph();
  for (const node of graph.nodes) layout.addNode(node.id, { size: 1 + Math.sqrt(node.memories) });
  for (const edge of graph.edges) {
    if (layout.hasNode(edge.from) && layout.hasNode(edge.to) && !layout.hasEdge(edge.from, edge.to)) {
      layout.addEdge(edge.from, edge.to, { weight: edge.memory_ids.length });
    }
  }
  circular.assign(layout);
  if (layout.order > 1) {
    forceAtlas2.assign(layout, {
      // A small graph settles in a few thousand steps from the circle; a large one gets fewer, each dearer.
      iterations: options.iterations ?? Math.round(Math.max(300, Math.min(3_000, 100_000 / layout.order))),
      getEdgeWeight: 'weight',
      settings: { ...forceAtlas2.inferSettings(layout), adjustSizes: true, gravity: 1, barnesHutOptimize: layout.order > 300 },
    });
  }
  const xs = layout.mapNodes((_node, attributes) => attributes.x as number);
  const ys = layout.mapNodes((_node, attributes) => attributes.y as number);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = (value: number, min: number, max: number, size: number) =>
    max === min ? size / 2 : MARGIN + ((value - min) / (max - min)) * (size - 2 * MARGIN);
  const most = Math.max(...graph.nodes.map((node) => node.memories));
  return graph.nodes.map((node) => {
    const attributes = layout.getNodeAttributes(node.id);
    return {
      ...node,
      x: round(scale(attributes.x as number, minX, maxX, width)),
      y: round(scale(attributes.y as number, minY, maxY, height)),
      radius: round(5 + 17 * Math.sqrt(node.memories / most)),
    };
  });
}

/** The graph drawn as an SVG image: nodes coloured by type and sized by memories, edges as thick as their memories, a legend. */
export function graphSvg(graph: DrawableGraph, options: DrawOptions = {}): string {
  const width = options.width ?? 1200;
  const height = options.height ?? 900;
  const placed = layoutGraph(graph, { ...options, width, height });
  const at = new Map(placed.map((node) => [node.id, node]));
  const lines: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  if (options.title) lines.push(`<text x="20" y="32" font-size="20" fill="#333">${escapeXml(options.title)}</text>`);
  lines.push('<g stroke="#999" stroke-opacity="0.6">');
  for (const edge of graph.edges) {
    const [from, to] = [at.get(edge.from), at.get(edge.to)];
    if (!from || !to) continue;
    const count = edge.memory_ids.length;
    lines.push(
      `<line x1="${from.x}" y1="${from.y}" x2="${to.x}" y2="${to.y}" stroke-width="${round(1 + Math.log2(count))}"><title>${escapeXml(`${from.name} – ${to.name}: ${count} ${count === 1 ? 'memory' : 'memories'} (${edge.memory_ids.join(', ')})`)}</title></line>`,
    );
  }
  lines.push('</g>', '<g stroke="#fff" stroke-width="1.5">');
  for (const node of placed) {
    lines.push(
      `<circle cx="${node.x}" cy="${node.y}" r="${node.radius}" fill="${COLOURS[node.type]}"><title>${escapeXml(`${node.name} (${node.type}): ${node.memories} ${node.memories === 1 ? 'memory' : 'memories'}`)}</title></circle>`,
    );
  }
  lines.push('</g>', '<g font-size="13" fill="#222" paint-order="stroke" stroke="#fff" stroke-width="3">');
  for (const node of placed) {
    lines.push(`<text x="${round(node.x + node.radius + 3)}" y="${round(node.y + 4)}">${escapeXml(node.name)}</text>`);
  }
  lines.push('</g>');
  const legendY = height - 20;
  lines.push(`<g font-size="13" fill="#333">`);
  (Object.keys(COLOURS) as GraphNode['type'][]).forEach((type, index) => {
    const x = 20 + index * 90;
    lines.push(`<circle cx="${x}" cy="${legendY - 4}" r="6" fill="${COLOURS[type]}"/><text x="${x + 10}" y="${legendY}">${type}</text>`);
  });
  lines.push('</g>', '</svg>');
  return `${lines.join('\n')}\n`;
}

/** The graph as a page: the drawing (hover a node or an edge for its memories), then the edges listed with their memory ids. */
export function graphHtml(graph: DrawableGraph, options: DrawOptions = {}): string {
  const nameOf = new Map(graph.nodes.map((node) => [node.id, node.name]));
  const rows = graph.edges
    .filter((edge) => nameOf.has(edge.from) && nameOf.has(edge.to))
    .map(
      (edge) =>
        `<tr><td>${escapeXml(nameOf.get(edge.from)!)}</td><td>${escapeXml(nameOf.get(edge.to)!)}</td><td>${edge.memory_ids.join(', ')}</td></tr>`,
    );
  const title = escapeXml(options.title ?? 'Engram graph');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}svg{max-width:100%;height:auto;border:1px solid #ddd}table{border-collapse:collapse;margin-top:16px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}</style>
</head>
<body>
<h1>${title}</h1>
<p>${graph.nodes.length} nodes, ${graph.edges.length} edges. Every edge is one or more memories that name both ends.</p>
${graphSvg(graph, { ...options, title: undefined })}
<table><thead><tr><th>From</th><th>To</th><th>Memories</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</body>
</html>
`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

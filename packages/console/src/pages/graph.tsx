interface Node {
  id: string;
  name: string;
  type: string;
  memories: number;
}
interface Edge {
  from: string;
  to: string;
  memory_ids: number[];
}

const COLORS: Record<string, string> = { person: '#1d4ed8', place: '#047857', org: '#9d174d', thing: '#7c2d12' };

/** Things named in memories on a circle, lines where a sentence names two of them. */
export function GraphView({ nodes, edges }: { nodes: Node[]; edges: Edge[] }) {
  if (!nodes.length) return <p class="muted">No things are named in this space's memories yet.</p>;
  const shown = nodes.slice(0, 60);
  const size = 520;
  const center = size / 2;
  const radius = size / 2 - 80;
  const at = new Map(
    shown.map((node, index) => {
      const angle = (2 * Math.PI * index) / shown.length - Math.PI / 2;
      return [node.id, { x: center + radius * Math.cos(angle), y: center + radius * Math.sin(angle), angle }];
    }),
  );
  return (
    <figure>
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`Graph of ${shown.length} things and ${edges.length} links`}
        class="graph"
      >
        {edges
          .filter((edge) => at.has(edge.from) && at.has(edge.to))
          .map((edge) => {
            const from = at.get(edge.from)!;
            const to = at.get(edge.to)!;
            return (
              <line
                key={`${edge.from}-${edge.to}`}
                x1={from.x}
                y1={from.y}
                x2={to.x}
                y2={to.y}
                stroke="#94a3b8"
                stroke-width={Math.min(4, edge.memory_ids.length)}
              />
            );
          })}
        {shown.map((node) => {
          const place = at.get(node.id)!;
          const right = Math.cos(place.angle) >= 0;
          return (
            <g key={node.id}>
              <circle cx={place.x} cy={place.y} r={5 + Math.min(10, node.memories)} fill={COLORS[node.type] ?? '#334155'} />
              <text x={place.x + (right ? 14 : -14)} y={place.y + 4} text-anchor={right ? 'start' : 'end'} font-size="12" fill="#0f172a">
                {node.name}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">
        People blue, places green, organisations red, things brown; a line joins two things named in one sentence.
      </figcaption>
    </figure>
  );
}

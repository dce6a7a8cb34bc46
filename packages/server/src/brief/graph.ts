import type { GraphEdge, GraphNode } from '@engram/protocol';
import type { Db } from '../store/database.js';
import { graphMemories, graphSignature, ownerNameOf } from '../store/people-repository.js';
import type { Scope } from '../store/scope.js';
import type { NameIndex } from './subject.js';
import { indexNames, nodeId, toGraphNode } from './subject.js';

/** A space's graph: who and what its memories name, and which pairs one memory names together. */
export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/**
 * The graph of a space, computed from its current memories when asked, so that a memory
 * deleted, corrected or replaced (or a source deleted) takes away at once whatever only it
 * supported. Nodes are the people, places, organisations and things memories name (name
 * variants merged), with how many memories name them, most first, at most `limit`; an edge
 * joins two nodes only where one memory names both, and lists every such memory. Nothing is
 * inferred: no edge comes from two memories together.
 */
export async function spaceGraph(db: Db, scope: Scope, limit: number): Promise<Graph> {
  return graphOf(await spaceNames(db, scope), limit);
}

/**
 * Indexes of names kept per space with the signature they were computed at (see
 * graphSignature): a graph asked again of an unchanged space costs one small read. Any change
 * of its memories, from any process, changes the signature, so a kept index is never stale.
 */
const kept = new Map<string, { signature: string; index: NameIndex }>();
/** Spaces whose index is kept; the oldest kept goes first when full. */
const KEPT_SPACES = 200;

async function spaceNames(db: Db, scope: Scope): Promise<NameIndex> {
  const key = `${scope.accountId}\u0000${scope.space}`;
  const signature = await graphSignature(db, scope);
  const known = kept.get(key);
  if (signature !== null && known?.signature === signature) return known.index;
  const [memories, ownerName] = await Promise.all([graphMemories(db, scope), ownerNameOf(db, scope)]);
  const index = indexNames(memories, ownerName);
  if (signature !== null) {
    kept.delete(key);
    if (kept.size >= KEPT_SPACES) kept.delete(kept.keys().next().value!);
    kept.set(key, { signature, index });
  }
  return index;
}

/** The graph of an index of names, keeping the `limit` nodes most memories name. */
export function graphOf(index: NameIndex, limit: number): Graph {
  const ranked = [...index.entities.values()].sort(
    (left, right) => right.memoryIds.length - left.memoryIds.length || compare(left.name, right.name) || compare(left.key, right.key),
  );
  const kept = ranked.slice(0, limit);
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const entity of kept) {
    let id = nodeId(entity.key);
    // Two keys may make one id ("a b" and "a-b"); the later one is told apart.
    for (let suffix = 2; used.has(id); suffix++) id = `${nodeId(entity.key)}~${suffix}`;
    used.add(id);
    ids.set(entity.key, id);
  }
  const nodes = kept.map((entity) => ({ ...toGraphNode(entity), id: ids.get(entity.key)! }));
  const edges = new Map<string, GraphEdge>();
  for (const [memoryId, keys] of index.keysOf) {
    const present = keys.map((key) => ids.get(key)).filter((id): id is string => id !== undefined);
    for (let first = 0; first < present.length; first++) {
      for (let second = first + 1; second < present.length; second++) {
        const [from, to] = [present[first]!, present[second]!].sort();
        const pair = `${from}\u0000${to}`;
        let edge = edges.get(pair);
        if (!edge) {
          edge = { from: from!, to: to!, memory_ids: [] };
          edges.set(pair, edge);
        }
        edge.memory_ids.push(memoryId);
      }
    }
  }
  for (const edge of edges.values()) edge.memory_ids.sort((left, right) => left - right);
  const sortedEdges = [...edges.values()].sort(
    (left, right) => right.memory_ids.length - left.memory_ids.length || compare(left.from, right.from) || compare(left.to, right.to),
  );
  return { nodes, edges: sortedEdges };
}

/** Code-unit order: the same on every machine, and cheaper than a locale's. */
function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

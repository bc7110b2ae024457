import dagre from '@dagrejs/dagre';
import type { RoleGroup, Topology } from './topology';

/** Room for a role's longer words in French or German ("Émetteur d'arrêt d'urgence") on a second line. */
export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 112;
const COLUMN_GAP = 200;
const ROW_GAP = 32;

/** Senders left, receivers right, devices without a role after them: the picture reads as the flow goes. */
const COLUMN: Record<RoleGroup, number> = { senders: 0, receivers: 1, 'no-role': 2 };

export interface Point {
  x: number;
  y: number;
}

/**
 * Where each device is drawn (top-left corners). Dagre orders each column so that links cross as
 * little as they can; the columns themselves are the role groups, so that a sender with no link
 * yet is still drawn among the senders (dagre alone would put any unlinked device first).
 */
export function topologyLayout(topology: Pick<Topology, 'nodes' | 'edges'>): Map<string, Point> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: ROW_GAP, ranksep: COLUMN_GAP });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of topology.nodes) graph.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of topology.edges) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);

  const columns = new Map<number, { id: string; y: number }[]>();
  for (const node of topology.nodes) {
    const column = COLUMN[node.group];
    const placed = graph.node(node.id);
    const list = columns.get(column) ?? [];
    list.push({ id: node.id, y: placed.y });
    columns.set(column, list);
  }
  const tallest = Math.max(0, ...[...columns.values()].map((list) => list.length));
  const positions = new Map<string, Point>();
  for (const [column, list] of columns) {
    list.sort((a, b) => a.y - b.y);
    // Each column centred on the tallest, so a single receiver sits level with its senders.
    const offset = ((tallest - list.length) * (NODE_HEIGHT + ROW_GAP)) / 2;
    list.forEach((entry, row) =>
      positions.set(entry.id, { x: column * (NODE_WIDTH + COLUMN_GAP), y: offset + row * (NODE_HEIGHT + ROW_GAP) }),
    );
  }
  return positions;
}

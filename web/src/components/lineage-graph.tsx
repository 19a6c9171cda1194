import dagre from '@dagrejs/dagre';
import { useMemo } from 'preact/hooks';
import { entityHref, singular } from '../entity-kinds.ts';
import type { LineageEdge, LineageNode } from '../lineage-walk.ts';

const NODE_WIDTH = 220;
const NODE_HEIGHT = 52;
const MARGIN = 16;

interface Placed extends LineageNode {
  readonly x: number;
  readonly y: number;
}

interface Layout {
  readonly nodes: readonly Placed[];
  readonly paths: ReadonlyArray<{ key: string; d: string; deprecated: boolean }>;
  readonly width: number;
  readonly height: number;
}

/** Dagre's layered layout, left to right: upstream on the left, downstream on the right, crossings kept few. */
function layout(nodes: readonly LineageNode[], edges: readonly LineageEdge[]): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 70, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.urn, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of edges) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const placed = nodes.map((n) => {
    const p = g.node(n.urn);
    return { ...n, x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 };
  });
  const byUrn = new Map(nodes.map((n) => [n.urn, n]));
  const paths = edges.map((e) => {
    const points = g.edge(e.from, e.to)?.points ?? [];
    const d = points.map((p: { x: number; y: number }, i: number) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    return { key: `${e.from} ${e.to}`, d, deprecated: byUrn.get(e.from)?.deprecated === true };
  });
  const graph = g.graph();
  return { nodes: placed, paths, width: Math.ceil(graph.width ?? 0), height: Math.ceil(graph.height ?? 0) };
}

/**
 * The lineage graph: each entity a box linking to its page (the centre outlined, deprecated ones marked), each edge an
 * arrow in the direction data flows. Drawn as HTML boxes over an SVG of the edges, so names wrap and links are links.
 */
export function LineageGraphView({ centre, nodes, edges }: { centre: string; nodes: readonly LineageNode[]; edges: readonly LineageEdge[] }) {
  const drawn = useMemo(() => layout(nodes, edges), [nodes, edges]);
  return (
    <div class="graph-scroll">
      <div class="graph" style={{ width: `${drawn.width}px`, height: `${drawn.height}px` }} role="group" aria-label="Lineage graph">
        <svg width={drawn.width} height={drawn.height} aria-hidden="true">
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" />
            </marker>
          </defs>
          {drawn.paths.map((p) => (
            <path key={p.key} d={p.d} class={p.deprecated ? 'edge edge-deprecated' : 'edge'} marker-end="url(#arrow)" />
          ))}
        </svg>
        <ul aria-label="Entities in the lineage graph">
          {drawn.nodes.map((n) => (
            <li
              key={n.urn}
              class={`node${n.urn === centre ? ' centre' : ''}${n.deprecated ? ' deprecated' : ''}`}
              data-urn={n.urn}
              data-degree={n.degree}
              style={{ left: `${n.x}px`, top: `${n.y}px`, width: `${NODE_WIDTH}px`, height: `${NODE_HEIGHT}px` }}
            >
              <a href={entityHref(n.urn)} title={n.urn}>
                {n.name}
              </a>
              <span class="node-meta">
                {singular(n.type)}
                {n.platform ? ` · ${n.platform}` : ''}
                {n.deprecated && <span class="badge badge-deprecated">Deprecated</span>}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

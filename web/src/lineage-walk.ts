import { gql } from './api.ts';
import { refName, type EntityRefView } from './entity-ref.ts';

/** One entity drawn in the graph. `degree` is its distance from the centre: negative upstream, positive downstream. */
export interface LineageNode {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  readonly platform: string | null;
  readonly deprecated: boolean;
  readonly degree: number;
}

/** Data flows from `from` (upstream) to `to` (downstream). */
export interface LineageEdge {
  readonly from: string;
  readonly to: string;
}

export interface LineageGraph {
  readonly nodes: readonly LineageNode[];
  readonly edges: readonly LineageEdge[];
  /** Whether one more hop that way finds entities not drawn yet. */
  readonly moreUpstream: boolean;
  readonly moreDownstream: boolean;
  /** Entities left out once the graph reached MAX_NODES. */
  readonly truncated: number;
}

export type Direction = 'UPSTREAM' | 'DOWNSTREAM';

/** The most entities one graph draws, and the most neighbours one entity contributes per direction. */
export const MAX_NODES = 500;
const PER_NODE = 100;
// Aliases one request may use (ALMANAC_GRAPHQL_MAX_ALIASES is 30).
const PER_REQUEST = 20;

/** What a box shows: only the types that have lineage can be in it, so only their names are asked for. */
const NODE_FIELDS = `fragment node on Entity {
  urn type
  ... on Dataset { name properties { name } platform { name } deprecation { deprecated } }
  ... on Chart { chartId properties { name } platform { name } deprecation { deprecated } }
  ... on Dashboard { dashboardId properties { name } platform { name } deprecation { deprecated } }
  ... on DataFlow { flowId properties { name } platform { name } deprecation { deprecated } }
  ... on DataJob { jobId properties { name } jobPlatform: platform { name } deprecation { deprecated } }
  ... on MLModel { name platform { name } deprecation { deprecated } }
}`;

/** DataHub's one-hop `lineage` field, on each type that has it. */
const HOP_FIELDS = `fragment hop on Entity {
  ${['Dataset', 'Chart', 'Dashboard', 'DataFlow', 'DataJob', 'MLModel']
    .map((t) => `... on ${t} { lineage(input: $input) { total relationships { entity { ...node } } } }`)
    .join('\n  ')}
}`;

type NodeView = EntityRefView & {
  platform?: { name: string } | null;
  jobPlatform?: { name: string } | null;
  deprecation?: { deprecated: boolean } | null;
};
type HopView = NodeView & { lineage?: { total: number; relationships: Array<{ entity: NodeView | null }> } | null };

const toNode = (v: NodeView, degree: number): LineageNode => ({
  urn: v.urn,
  type: v.type,
  name: refName(v),
  platform: v.platform?.name ?? v.jobPlatform?.name ?? null,
  deprecated: v.deprecation?.deprecated === true,
  degree,
});

/** One hop from each of the urns in one direction, a request per PER_REQUEST urns. */
async function hop(urns: readonly string[], direction: Direction): Promise<Map<string, NodeView[]>> {
  const out = new Map<string, NodeView[]>();
  const batches: string[][] = [];
  for (let i = 0; i < urns.length; i += PER_REQUEST) batches.push(urns.slice(i, i + PER_REQUEST));
  await Promise.all(
    batches.map(async (batch) => {
      const vars = batch.map((_, i) => `$u${i}: String!`).join(', ');
      const fields = batch.map((_, i) => `n${i}: entity(urn: $u${i}) { urn ...hop }`).join('\n');
      const data = await gql<Record<string, HopView | null>>(
        `query lineageHop($input: LineageInput!, ${vars}) {\n${fields}\n}\n${HOP_FIELDS}\n${NODE_FIELDS}`,
        { input: { direction, count: PER_NODE }, ...Object.fromEntries(batch.map((u, i) => [`u${i}`, u])) },
      );
      batch.forEach((urn, i) => {
        const rels = data[`n${i}`]?.lineage?.relationships ?? [];
        out.set(
          urn,
          rels.flatMap((r) => (r.entity ? [r.entity] : [])),
        );
      });
    }),
  );
  return out;
}

/** The centre entity itself, as a node. */
export async function centreNode(urn: string): Promise<LineageNode | null> {
  const data = await gql<{ entity: NodeView | null }>(`query lineageCentre($urn: String!) { entity(urn: $urn) { ...node } }\n${NODE_FIELDS}`, {
    urn,
  });
  return data.entity ? toNode(data.entity, 0) : null;
}

/**
 * Remembers every hop asked so far, so opening one more hop asks only about the new frontier, and closing one asks
 * nothing. `graph` walks the remembered hops out to the given depths.
 */
export class LineageWalk {
  private readonly hops = new Map<string, NodeView[]>();

  constructor(private readonly centre: LineageNode) {}

  private key = (direction: Direction, urn: string) => `${direction} ${urn}`;

  /** Asks one hop from each urn not asked before. */
  private async ask(urns: readonly string[], direction: Direction): Promise<void> {
    const unknown = urns.filter((u) => !this.hops.has(this.key(direction, u)));
    if (unknown.length > 0) for (const [urn, found] of await hop(unknown, direction)) this.hops.set(this.key(direction, urn), found);
  }

  /** Asks what is not yet known out to the given depths, then answers the graph. */
  async graph(up: number, down: number): Promise<LineageGraph> {
    const nodes = new Map<string, LineageNode>([[this.centre.urn, this.centre]]);
    const edges = new Map<string, LineageEdge>();
    let truncated = 0;
    const walk = async (direction: Direction, depth: number): Promise<boolean> => {
      let frontier = [this.centre.urn];
      for (let d = 1; d <= depth && frontier.length > 0; d++) {
        await this.ask(frontier, direction);
        const next: string[] = [];
        for (const urn of frontier) {
          for (const n of this.hops.get(this.key(direction, urn)) ?? []) {
            const edge = direction === 'UPSTREAM' ? { from: n.urn, to: urn } : { from: urn, to: n.urn };
            if (!nodes.has(n.urn)) {
              if (nodes.size >= MAX_NODES) {
                truncated++;
                continue;
              }
              nodes.set(n.urn, toNode(n, direction === 'UPSTREAM' ? -d : d));
              next.push(n.urn);
            }
            edges.set(`${edge.from} ${edge.to}`, edge);
          }
        }
        frontier = next;
      }
      // One hop further is asked ahead (and kept, so opening it costs nothing): whether it finds anyone new says
      // whether "one more hop" is worth offering.
      if (nodes.size >= MAX_NODES) return frontier.length > 0;
      await this.ask(frontier, direction);
      return frontier.some((u) => (this.hops.get(this.key(direction, u)) ?? []).some((n) => !nodes.has(n.urn)));
    };
    const moreUpstream = await walk('UPSTREAM', up);
    const moreDownstream = await walk('DOWNSTREAM', down);
    return { nodes: [...nodes.values()], edges: [...edges.values()], moreUpstream, moreDownstream, truncated };
  }
}

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
// Entities one request asks about: each costs about 1,900 in graphql-armor's estimate (one type's lineage, six kinds
// of neighbour), under ALMANAC_GRAPHQL_MAX_COST's 100,000 and the 30 aliases of ALMANAC_GRAPHQL_MAX_ALIASES.
const PER_REQUEST = 20;

/**
 * What a box shows: only the types that have lineage can be in it, so only their names are asked for. A task's
 * platform is left out: its field is nullable where the others' are not, so it would need an alias, and the alias
 * limit counts it again for every entity of a hop.
 */
const NODE_FIELDS = `fragment node on Entity {
  urn type
  ... on Dataset { name properties { name } platform { name } deprecation { deprecated } }
  ... on Chart { chartId properties { name } platform { name } deprecation { deprecated } }
  ... on Dashboard { dashboardId properties { name } platform { name } deprecation { deprecated } }
  ... on DataFlow { flowId properties { name } platform { name } deprecation { deprecated } }
  ... on DataJob { jobId properties { name } deprecation { deprecated } }
  ... on MLModel { name platform { name } deprecation { deprecated } }
}`;

/** The GraphQL type of each entity type that has DataHub's one-hop `lineage` field. */
const LINEAGE_TYPENAMES: Readonly<Record<string, string>> = {
  DATASET: 'Dataset',
  CHART: 'Chart',
  DASHBOARD: 'Dashboard',
  DATA_FLOW: 'DataFlow',
  DATA_JOB: 'DataJob',
  MLMODEL: 'MLModel',
};

type NodeView = EntityRefView & { platform?: { name: string } | null; deprecation?: { deprecated: boolean } | null };
type HopView = { lineage?: { relationships: Array<{ entity: NodeView | null }> } | null };

const toNode = (v: NodeView, degree: number): LineageNode => ({
  urn: v.urn,
  type: v.type,
  name: refName(v),
  platform: v.platform?.name ?? null,
  deprecated: v.deprecation?.deprecated === true,
  degree,
});

/**
 * One hop from each entity in one direction, PER_REQUEST entities a request. Each alias names the entity's own type,
 * so the estimated cost is one type's lineage, not every type's.
 */
async function hop(entities: ReadonlyArray<{ urn: string; type: string }>, direction: Direction): Promise<Map<string, NodeView[]>> {
  const out = new Map<string, NodeView[]>(entities.filter((e) => !LINEAGE_TYPENAMES[e.type]).map((e) => [e.urn, []]));
  const asked = entities.filter((e) => LINEAGE_TYPENAMES[e.type]);
  const batches: Array<typeof asked> = [];
  for (let i = 0; i < asked.length; i += PER_REQUEST) batches.push(asked.slice(i, i + PER_REQUEST));
  await Promise.all(
    batches.map(async (batch) => {
      const vars = batch.map((_, i) => `$u${i}: String!`).join(', ');
      const fields = batch
        .map(
          (e, i) =>
            `n${i}: entity(urn: $u${i}) { ... on ${LINEAGE_TYPENAMES[e.type]} { lineage(input: $input) { relationships { entity { ...node } } } } }`,
        )
        .join('\n');
      const data = await gql<Record<string, HopView | null>>(`query lineageHop($input: LineageInput!, ${vars}) {\n${fields}\n}\n${NODE_FIELDS}`, {
        input: { direction, count: PER_NODE },
        ...Object.fromEntries(batch.map((e, i) => [`u${i}`, e.urn])),
      });
      batch.forEach((e, i) => {
        const rels = data[`n${i}`]?.lineage?.relationships ?? [];
        out.set(
          e.urn,
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

  /** Asks one hop from each entity not asked before. */
  private async ask(entities: ReadonlyArray<{ urn: string; type: string }>, direction: Direction): Promise<void> {
    const unknown = entities.filter((e) => !this.hops.has(this.key(direction, e.urn)));
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
        await this.ask(
          frontier.map((u) => nodes.get(u)!),
          direction,
        );
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
      await this.ask(
        frontier.map((u) => nodes.get(u)!),
        direction,
      );
      return frontier.some((u) => (this.hops.get(this.key(direction, u)) ?? []).some((n) => !nodes.has(n.urn)));
    };
    const moreUpstream = await walk('UPSTREAM', up);
    const moreDownstream = await walk('DOWNSTREAM', down);
    return { nodes: [...nodes.values()], edges: [...edges.values()], moreUpstream, moreDownstream, truncated };
  }
}

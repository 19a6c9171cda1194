import { badRequest } from '../errors.ts';
import { checkBatchSize } from '../resource-refs.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf, type AspectEdit } from './aspect-edits.ts';

/** DataHub's LineageEdge: the downstream entity reads from the upstream one. */
export interface LineageEdge {
  readonly downstreamUrn: string;
  readonly upstreamUrn: string;
}

/** Edges a UI write marks as its own (LineageService's `source: UI`). */
const UI: Json = { source: 'UI' };

/** One list of an aspect that holds lineage: its Edge objects, the legacy urn list beside them, and what it takes. */
interface EdgeList {
  readonly edges: string;
  readonly legacy: string;
  readonly types: readonly string[];
}

/** Where updateLineage writes a downstream's upstreams, by its type (DataHub's LineageService). */
interface LineageHolder {
  readonly aspect: string;
  readonly lists: readonly EdgeList[];
  /** The upstream types accepted, and DataHub's refusal of another. */
  readonly accepts: readonly string[];
  readonly refusal: (urn: string) => string;
  /** Set when the aspect must exist already (DataHub's message). */
  readonly requiresExisting?: (urn: string) => string;
  /** What a new aspect starts from: the lists its model requires. */
  readonly initial?: Json;
}

/** dataJobInputOutput requires its (deprecated) dataset lists. */
const JOB_IO: Json = { inputDatasets: [], outputDatasets: [] };

const HOLDERS: Readonly<Record<string, LineageHolder>> = {
  chart: {
    aspect: 'chartInfo',
    lists: [{ edges: 'inputEdges', legacy: 'inputs', types: ['dataset', 'chart'] }],
    accepts: ['dataset', 'chart'],
    refusal: (u) => `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${u}`,
    requiresExisting: (u) => `Failed to update chart lineage for urn ${u} as chart info doesn't exist`,
  },
  dashboard: {
    aspect: 'dashboardInfo',
    lists: [
      { edges: 'chartEdges', legacy: 'charts', types: ['chart'] },
      { edges: 'datasetEdges', legacy: 'datasets', types: ['dataset'] },
    ],
    accepts: ['dataset', 'chart'],
    refusal: (u) => `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${u}`,
    requiresExisting: (u) => `Failed to update dashboard lineage for urn ${u} as dashboard info doesn't exist`,
  },
  dataJob: {
    aspect: 'dataJobInputOutput',
    lists: [
      { edges: 'inputDatasetEdges', legacy: 'inputDatasets', types: ['dataset'] },
      { edges: 'inputDatajobEdges', legacy: 'inputDatajobs', types: ['dataJob'] },
    ],
    accepts: ['dataset', 'dataJob'],
    refusal: (u) => `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${u}`,
    initial: JOB_IO,
  },
};

/** A data job's outputs: where an edge whose upstream is a job goes (its downstream datasets). */
const JOB_OUTPUTS: EdgeList = { edges: 'outputDatasetEdges', legacy: 'outputDatasets', types: ['dataset'] };
const DATASET_ONLY = (u: string) => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${u}`;

const objects = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);
const typeOf = (urn: string) => parseUrn(urn).entityType;
/** A legacy list entry: an urn, or (chartInfo.inputs) a union holding one. */
const legacyUrn = (v: unknown): unknown => (typeof v === 'object' && v !== null ? Object.values(v)[0] : v);

/** The list pair with the additions (as Edge objects, skipping what either list has) and removals applied. */
function editList(value: Json, list: EdgeList, owner: string, add: readonly string[], remove: ReadonlySet<string>, stamp: Json): Json {
  const edges = objects(value[list.edges]);
  const legacy = Array.isArray(value[list.legacy]) ? (value[list.legacy] as unknown[]) : [];
  const present = new Set([...edges.map((e) => e.destinationUrn), ...legacy.map(legacyUrn)]);
  const added = [...new Set(add)]
    .filter((u) => list.types.includes(typeOf(u)) && !present.has(u))
    .map((u) => ({ destinationUrn: u, sourceUrn: owner, created: stamp, lastModified: stamp, properties: UI }));
  return {
    ...value,
    [list.edges]: [...edges, ...added].filter((e) => !remove.has(e.destinationUrn as string)),
    [list.legacy]: legacy.filter((u) => !remove.has(legacyUrn(u) as string)),
  };
}

/** A dataset's upstreamLineage with the upstreams added (TRANSFORMED, stamped, from the UI) and removed. */
function editUpstreams(value: Json | undefined, add: readonly string[], remove: ReadonlySet<string>, stamp: Json): Json {
  const upstreams = objects(value?.upstreams);
  const present = new Set(upstreams.map((u) => u.dataset));
  const added = [...new Set(add)]
    .filter((u) => !present.has(u))
    .map((u) => ({ dataset: u, type: 'TRANSFORMED', auditStamp: stamp, created: stamp, properties: UI }));
  return { ...value, upstreams: [...upstreams, ...added].filter((u) => !remove.has(u.dataset as string)) };
}

const group = (edges: readonly LineageEdge[], by: 'downstreamUrn' | 'upstreamUrn', other: 'downstreamUrn' | 'upstreamUrn') => {
  const out = new Map<string, string[]>();
  for (const e of edges) out.set(e[by], [...(out.get(e[by]) ?? []), e[other]]);
  return out;
};

/**
 * DataHub's updateLineage (UpdateLineageResolver and LineageService): each downstream's upstreams are written on the
 * downstream (a dataset's upstreamLineage; a chart's, dashboard's or job's input edges), and a job's outputs on the
 * job when it is the upstream. Removals win over additions. Every entity is checked before anything is written,
 * and everything is one transaction.
 */
export class LineageEdits {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly edits: AspectEdits,
  ) {}

  async update(toAdd: readonly LineageEdge[], toRemove: readonly LineageEdge[], actor: string): Promise<void> {
    checkBatchSize('updateLineage', 'edges', toAdd.length + toRemove.length);
    const all = [...toAdd, ...toRemove];
    for (const e of all) [e.downstreamUrn, e.upstreamUrn].forEach((u) => parseUrn(u));
    const found = await this.ports.aspects.existing([...new Set(all.flatMap((e) => [e.downstreamUrn, e.upstreamUrn]))]);
    const now = this.edits.now();
    const stamp = auditStampOf(actor, now);
    const edits: AspectEdit[] = [];
    const [addUp, removeUp] = [group(toAdd, 'downstreamUrn', 'upstreamUrn'), group(toRemove, 'downstreamUrn', 'upstreamUrn')];
    for (const downstream of new Set([...addUp.keys(), ...removeUp.keys()])) {
      if (!found.has(downstream)) throw badRequest(`Cannot upsert lineage as downstream urn ${downstream} doesn't exist`);
      const type = typeOf(downstream);
      const remove = new Set(removeUp.get(downstream) ?? []);
      // A job upstream of a dataset is recorded on the job (its outputs), never in the dataset's upstreamLineage.
      const add = (addUp.get(downstream) ?? []).filter((u) => type !== 'dataset' || typeOf(u) !== 'dataJob');
      const holder = HOLDERS[type];
      for (const u of add) {
        if (type === 'dataset' ? typeOf(u) !== 'dataset' : holder && !holder.accepts.includes(typeOf(u))) {
          throw badRequest(type === 'dataset' ? DATASET_ONLY(u) : holder!.refusal(u));
        }
        if (!found.has(u)) throw badRequest(`Error: urn does not exist: ${u}`);
      }
      if (type === 'dataset') {
        // A dataset whose only change was a job upstream (recorded on the job) is not written.
        if (add.length === 0 && remove.size === 0) continue;
        edits.push({ urn: downstream, entityType: type, aspect: 'upstreamLineage', update: (v) => editUpstreams(v, add, remove, stamp) });
      } else if (holder) {
        edits.push({
          urn: downstream,
          entityType: type,
          aspect: holder.aspect,
          update: (v) => {
            if (v === undefined && holder.requiresExisting) throw badRequest(holder.requiresExisting(downstream));
            return holder.lists.reduce((acc, list) => editList(acc, list, downstream, add, remove, stamp), v ?? holder.initial ?? {});
          },
        });
      }
    }
    const [addDown, removeDown] = [group(toAdd, 'upstreamUrn', 'downstreamUrn'), group(toRemove, 'upstreamUrn', 'downstreamUrn')];
    for (const upstream of new Set([...addDown.keys(), ...removeDown.keys()])) {
      // DataHub's own message names the upstream "downstream" here.
      if (!found.has(upstream)) throw badRequest(`Cannot upsert lineage as downstream urn ${upstream} doesn't exist`);
      if (typeOf(upstream) !== 'dataJob') continue;
      const add = (addDown.get(upstream) ?? []).filter((u) => typeOf(u) !== 'dataJob');
      const remove = new Set((removeDown.get(upstream) ?? []).filter((u) => typeOf(u) !== 'dataJob'));
      for (const u of add) if (typeOf(u) !== 'dataset') throw badRequest(DATASET_ONLY(u));
      edits.push({
        urn: upstream,
        entityType: 'dataJob',
        aspect: 'dataJobInputOutput',
        update: (v) => editList(v ?? JOB_IO, JOB_OUTPUTS, upstream, add, remove, stamp),
      });
    }
    await this.edits.apply(edits, actor, now, (urn) => `Cannot upsert lineage as downstream urn ${urn} doesn't exist`);
  }
}

import { badRequest } from '../errors.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const FIELD = 'fineGrainedLineages';
const NONE = 'NONE';
const DEFAULT_CONFIDENCE = 1;

/** A map without a prototype: its keys are urns and operations clients chose. */
const map = (): Obj => Object.create(null) as Obj;
const child = (parent: Obj, key: string): Obj => (isObj(parent[key]) ? parent[key] : (parent[key] = map())) as Obj;

/**
 * DataHub's FineGrainedLineageTemplateHelper: `fineGrainedLineages` becomes
 * `{transformOperation: {downstream: {query: {upstream: {confidenceScore, upstreamType, downstreamType}}}}}`,
 * so the SDK's paths (`/fineGrainedLineages/SUM/<downstream>/NONE/<upstream>`) name one edge. Only a lineage with
 * exactly one downstream has such a key; any other is refused, as DataHub refuses it.
 */
export function fineGrainedToMap(doc: Obj): void {
  const list = doc[FIELD];
  const out = map();
  if (Array.isArray(list)) {
    for (const raw of list) {
      const node = isObj(raw) ? raw : {};
      const downstreams = node.downstreams;
      if (!Array.isArray(downstreams) || downstreams.length !== 1) {
        throw badRequest(
          'Patching not supported on fine grained lineages with not exactly one downstream. Current fine grained lineage implementation is downstream derived and patches are keyed on the root of this derivation.',
        );
      }
      const upstreams = Array.isArray(node.upstreams) ? node.upstreams.map(String) : [];
      const upstreamType =
        typeof node.upstreamType === 'string' ? node.upstreamType : upstreams[0]?.startsWith('urn:li:dataset:') ? 'DATASET' : 'FIELD_SET';
      const edge = {
        confidenceScore: typeof node.confidenceScore === 'number' ? node.confidenceScore : DEFAULT_CONFIDENCE,
        upstreamType,
        downstreamType: typeof node.downstreamType === 'string' ? node.downstreamType : 'FIELD',
      };
      const op = typeof node.transformOperation === 'string' ? node.transformOperation : NONE;
      const query = typeof node.query === 'string' ? node.query : NONE;
      const at = child(child(child(out, op), String(downstreams[0])), query);
      for (const u of upstreams) at[u] = { ...edge };
    }
  }
  doc[FIELD] = out;
}

/** The inverse after the patch: one lineage per (operation, downstream, query) with upstreams left, the lowest score. */
export function fineGrainedToArray(doc: Obj): void {
  const byOp = doc[FIELD];
  if (!isObj(byOp)) return; // replaced whole by the patch, or absent
  const out: Obj[] = [];
  for (const [op, byDownstream] of Object.entries(byOp)) {
    if (!isObj(byDownstream)) continue;
    for (const [downstream, byQuery] of Object.entries(byDownstream)) {
      if (!isObj(byQuery)) continue;
      for (const [query, byUpstream] of Object.entries(byQuery)) {
        if (!isObj(byUpstream) || Object.keys(byUpstream).length === 0) continue;
        let confidenceScore = DEFAULT_CONFIDENCE;
        let upstreamType = 'FIELD_SET';
        let downstreamType = 'FIELD';
        for (const edge of Object.values(byUpstream)) {
          if (!isObj(edge)) continue;
          if (typeof edge.confidenceScore === 'number' && edge.confidenceScore <= confidenceScore) confidenceScore = edge.confidenceScore;
          if (typeof edge.upstreamType === 'string') upstreamType = edge.upstreamType;
          if (typeof edge.downstreamType === 'string') downstreamType = edge.downstreamType;
        }
        out.push({
          downstreams: [downstream],
          upstreams: Object.keys(byUpstream),
          ...(query !== '' && query !== NONE ? { query } : {}),
          upstreamType,
          downstreamType,
          confidenceScore,
          transformOperation: op,
        });
      }
    }
  }
  doc[FIELD] = out;
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { asList, asString, asStrings, fetchAspects, fieldOf } from '../aspects.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { LineageGraphView } from '../components/lineage-graph.tsx';
import { entityHref, lineageHref, singular } from '../entity-kinds.ts';
import { refName, type EntityRefView } from '../entity-ref.ts';
import { entityRefs } from '../names.ts';
import { centreNode, LineageWalk, MAX_NODES, type LineageGraph } from '../lineage-walk.ts';
import { replaceOwnAddress } from '../own-address.ts';

interface ColumnEdge {
  readonly downstream: string[];
  readonly upstream: Array<{ dataset: string; fieldPath: string }>;
  readonly transform: string | null;
}

/** The column-level lineage ingested for a dataset: which upstream fields each of its fields is made from. */
function ColumnLineage({ urn }: { urn: string }) {
  const [rows, setRows] = useState<ColumnEdge[] | null>(null);
  const [names, setNames] = useState<ReadonlyMap<string, EntityRefView>>(new Map());
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const aspects = await fetchAspects(urn);
      const found = asList(aspects?.upstreamLineage?.fineGrainedLineages).map((f) => ({
        downstream: asStrings(f.downstreams).flatMap((d) => fieldOf(d)?.fieldPath ?? []),
        upstream: asStrings(f.upstreams).flatMap((u) => fieldOf(u) ?? []),
        transform: asString(f.transformOperation),
      }));
      const named = await entityRefs(found.flatMap((r) => r.upstream.map((u) => u.dataset)));
      if (!live) return;
      setNames(named);
      setRows(found);
    })().catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [urn]);
  if (error) return <ErrorBox error={error} />;
  if (!rows) return null;
  return (
    <section aria-labelledby="columns-heading">
      <h2 id="columns-heading">Column lineage</h2>
      {rows.length === 0 ? (
        <p class="muted">No column-level lineage was ingested for this dataset.</p>
      ) : (
        <table class="column-lineage">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Made from</th>
              <th scope="col">Transformation</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td>
                  <code>{r.downstream.join(', ')}</code>
                </td>
                <td>
                  {r.upstream.map((u, i) => (
                    <>
                      {i > 0 && ', '}
                      <a href={entityHref(u.dataset)}>{refName(names.get(u.dataset), u.dataset)}</a>.<code>{u.fieldPath}</code>
                    </>
                  ))}
                </td>
                <td>{r.transform ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const depth = (v: string | null): number => Math.max(0, Math.min(1000, Number(v ?? 1) || 0));

/**
 * An entity's lineage as a graph, opened hop by hop each way. The address keeps the hops open (#/lineage/<urn>?up=2&down=1),
 * so a link shows the same graph.
 */
export function LineagePage({ urn, initial }: { urn: string; initial: URLSearchParams }) {
  const [up, setUp] = useState(depth(initial.get('up')));
  const [down, setDown] = useState(depth(initial.get('down')));
  const [graph, setGraph] = useState<LineageGraph | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(true);
  const walk = useRef<LineageWalk | null>(null);

  useEffect(() => {
    const hash = lineageHref(urn, up, down);
    replaceOwnAddress(hash);
    let live = true;
    setBusy(true);
    (async () => {
      if (!walk.current) {
        const centre = await centreNode(urn);
        if (!centre) throw new Error(`No entity ${urn}: check the address.`);
        walk.current = new LineageWalk(centre);
      }
      const g = await walk.current.graph(up, down);
      if (live) {
        setGraph(g);
        setError(null);
      }
    })()
      .catch((e: unknown) => live && setError(e))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [urn, up, down]);

  const centre = graph?.nodes.find((n) => n.degree === 0);
  useEffect(() => {
    if (centre) document.title = `Lineage of ${centre.name} · Almanac`;
  }, [centre?.name]);
  const deprecated = graph?.nodes.filter((n) => n.deprecated && n.degree !== 0) ?? [];

  return (
    <main class="wide">
      <p class="crumbs">
        <a href={entityHref(urn)}>{centre ? centre.name : urn}</a> / Lineage
      </p>
      <h1>Lineage of {centre?.name ?? '…'}</h1>
      {centre && <p class="muted">{singular(centre.type)} · data flows left to right</p>}
      <div class="toolbar" role="group" aria-label="Hops">
        <span>
          Upstream: {up} hop{up === 1 ? '' : 's'}
        </span>
        <button onClick={() => setUp(Math.max(0, up - 1))} disabled={up === 0 || busy}>
          Fewer
        </button>
        <button onClick={() => setUp(up + 1)} disabled={busy || !graph?.moreUpstream}>
          One more hop upstream
        </button>
        <span>
          Downstream: {down} hop{down === 1 ? '' : 's'}
        </span>
        <button onClick={() => setDown(Math.max(0, down - 1))} disabled={down === 0 || busy}>
          Fewer
        </button>
        <button onClick={() => setDown(down + 1)} disabled={busy || !graph?.moreDownstream}>
          One more hop downstream
        </button>
      </div>
      <ErrorBox error={error} />
      {busy && !graph && <p aria-busy="true">Walking lineage…</p>}
      {graph && (
        <>
          <p class="muted" aria-live="polite" aria-busy={busy}>
            {graph.nodes.length - 1 === 0
              ? 'No lineage recorded yet: nothing upstream or downstream within these hops.'
              : `${graph.nodes.length - 1} related entit${graph.nodes.length === 2 ? 'y' : 'ies'}, ${graph.edges.length} edge${graph.edges.length === 1 ? '' : 's'}`}
            {deprecated.length > 0 && `; ${deprecated.length} deprecated`}
            {graph.truncated > 0 && `; ${graph.truncated} more not drawn (a graph shows at most ${MAX_NODES})`}
          </p>
          <LineageGraphView centre={urn} nodes={graph.nodes} edges={graph.edges} />
        </>
      )}
      {urn.startsWith('urn:li:dataset:') && <ColumnLineage urn={urn} />}
    </main>
  );
}

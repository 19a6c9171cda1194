import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { datasetHref, formatCount } from '../format.ts';
import { ErrorBox } from './error-box.tsx';

const IMPACT = `query impact($urn: String!) {
  deprecationImpact(urn: $urn, depth: 3) { total downstream { urn entityType degree owners entity { ...ref } } }
}
${REF_FIELDS}`;

export interface Impacted {
  urn: string;
  entityType: string;
  degree: number;
  owners: string[];
  entity: EntityRefView | null;
}

export interface Impact {
  total: number;
  downstream: Impacted[];
}

/** What depends on the given entities through lineage (three hops), merged: each entity once, at its nearest. */
export function useImpact(urns: readonly string[]): { impact: Impact | null; error: unknown } {
  const [impact, setImpact] = useState<Impact | null>(null);
  const [error, setError] = useState<unknown>(null);
  const key = urns.join('\n');
  useEffect(() => {
    let live = true;
    setImpact(null);
    Promise.all(urns.map((urn) => gql<{ deprecationImpact: Impact }>(IMPACT, { urn })))
      .then((answers) => {
        if (!live) return;
        const chosen = new Set(urns);
        const nearest = new Map<string, Impacted>();
        for (const a of answers)
          for (const e of a.deprecationImpact.downstream) {
            const seen = nearest.get(e.urn);
            if (!chosen.has(e.urn) && (!seen || e.degree < seen.degree)) nearest.set(e.urn, e);
          }
        const downstream = [...nearest.values()].sort((a, b) => a.degree - b.degree || a.urn.localeCompare(b.urn));
        const total = Math.max(downstream.length, ...answers.map((a) => a.deprecationImpact.total));
        setImpact({ total, downstream });
      })
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [key]);
  return { impact, error };
}

const ownerName = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** The entity's name, or for one without a name in the catalog (a job, a chart) the last part of its urn's key. */
function label(e: Impacted): string {
  const name = refName(e.entity, e.urn);
  return name === e.urn ? (/,([^,()]+)\)$/.exec(e.urn)?.[1] ?? e.urn) : name;
}

/** The downstream entities as a table: name (a link for datasets), type, hops away, owners. */
export function ImpactTable({ impact, caption }: { impact: Impact; caption: string }) {
  if (impact.downstream.length === 0) return <p class="muted">Nothing downstream depends on it through lineage.</p>;
  return (
    <table class="impact">
      <caption>
        {caption} ({formatCount(impact.total)})
      </caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Hops</th>
          <th scope="col">Owners</th>
        </tr>
      </thead>
      <tbody>
        {impact.downstream.map((e) => (
          <tr data-urn={e.urn}>
            <td title={e.urn}>{e.entityType === 'dataset' ? <a href={datasetHref(e.urn)}>{label(e)}</a> : label(e)}</td>
            <td>{e.entityType}</td>
            <td>{e.degree}</td>
            <td>{e.owners.map(ownerName).join(', ') || '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The downstream section of a deprecated dataset's page. */
export function DownstreamSection({ urn }: { urn: string }) {
  const { impact, error } = useImpact([urn]);
  return (
    <section aria-label="Downstream impact">
      <h2>Who depends on it</h2>
      <ErrorBox error={error} />
      {impact ? <ImpactTable impact={impact} caption="Downstream within three hops" /> : !error && <p aria-busy="true">Walking lineage…</p>}
    </section>
  );
}

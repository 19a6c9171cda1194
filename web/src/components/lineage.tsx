import { useEffect, useState } from 'preact/hooks';
import { getJson, gql } from '../api.ts';
import { datasetHref, datasetParts, datasetTitle } from '../format.ts';
import { ErrorBox } from './error-box.tsx';

interface Related {
  urn: string;
  title: string;
  platform: string;
}

interface Lineage {
  upstream: Related[];
  downstream: Related[];
  more: number;
}

// GraphQL allows 30 aliases per operation; a page needs a few for itself.
const NAMED = 25;

/** One hop of dataset lineage: DownstreamOf edges leave a dataset towards its upstreams. */
async function neighbours(urn: string, direction: 'OUTGOING' | 'INCOMING'): Promise<{ urns: string[]; total: number }> {
  const q = new URLSearchParams({ urn, relationshipTypes: 'DownstreamOf', direction, count: '100' });
  const page = await getJson<{ total: number; entities: Array<{ urn: string }> }>(`/openapi/relationships/v1/?${q}`);
  const urns = [...new Set(page.entities.map((e) => e.urn).filter((u) => u.startsWith('urn:li:dataset:')))];
  return { urns, total: page.total };
}

/** The datasets' display names in one request; a dataset not stored keeps the name in its urn. */
async function named(urns: readonly string[]): Promise<Map<string, Related>> {
  const shown = urns.slice(0, NAMED);
  const out = new Map<string, Related>(shown.map((u) => [u, { urn: u, title: datasetParts(u).name, platform: datasetParts(u).platform }]));
  if (shown.length === 0) return out;
  const vars = shown.map((_, i) => `$u${i}: String!`).join(', ');
  const fields = shown.map((_, i) => `d${i}: dataset(urn: $u${i}) { urn name properties { name } platform { name } }`).join('\n');
  const data = await gql<Record<string, { urn: string; name: string; properties: { name: string } | null; platform: { name: string } } | null>>(
    `query lineageNames(${vars}) {\n${fields}\n}`,
    Object.fromEntries(shown.map((u, i) => [`u${i}`, u])),
  );
  for (const d of Object.values(data)) if (d) out.set(d.urn, { urn: d.urn, title: datasetTitle(d), platform: d.platform.name });
  return out;
}

function Side({ label, items }: { label: string; items: readonly Related[] }) {
  return (
    <div>
      <h3>{label}</h3>
      {items.length === 0 ? (
        <p class="muted">None recorded.</p>
      ) : (
        <ul aria-label={`${label} datasets`} class="lineage-list">
          {items.map((r) => (
            <li>
              <a href={datasetHref(r.urn)}>{r.title}</a> <span class="muted">{r.platform}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Upstream and downstream datasets, as the relationship index stores them, each a link to its page. */
export function LineageSection({ urn }: { urn: string }) {
  const [lineage, setLineage] = useState<Lineage | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setLineage(null);
    let live = true;
    (async () => {
      const [up, down] = await Promise.all([neighbours(urn, 'OUTGOING'), neighbours(urn, 'INCOMING')]);
      const all = [...new Set([...up.urns, ...down.urns])];
      const names = await named(all);
      const pick = (urns: string[]) => urns.flatMap((u) => names.get(u) ?? []);
      if (live) setLineage({ upstream: pick(up.urns), downstream: pick(down.urns), more: all.length - names.size });
    })().catch((e: unknown) => live && setError(e));
    // Following a lineage link re-runs this for the next dataset: the previous one's answer must not land there.
    return () => {
      live = false;
    };
  }, [urn]);

  return (
    <section aria-labelledby="lineage-heading">
      <h2 id="lineage-heading">Lineage</h2>
      <ErrorBox error={error} />
      {lineage && (
        <div class="lineage">
          <Side label="Upstream" items={lineage.upstream} />
          <Side label="Downstream" items={lineage.downstream} />
          {lineage.more > 0 && <p class="muted">and {lineage.more} more not shown.</p>}
        </div>
      )}
    </section>
  );
}

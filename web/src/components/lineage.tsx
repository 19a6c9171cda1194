import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.ts';
import { refName } from '../entity-ref.ts';
import { datasetHref, datasetParts } from '../format.ts';
import { lineageHref } from '../entity-kinds.ts';
import { entityRefs } from '../names.ts';
import { ErrorBox } from './error-box.tsx';

interface Related {
  urn: string;
  title: string;
  platform: string;
}

// Named at most; the rest keep the names in their urns.
const NAMED = 25;

interface Lineage {
  upstream: Related[];
  downstream: Related[];
  more: number;
}

/** One hop of dataset lineage: DownstreamOf edges leave a dataset towards its upstreams. */
async function neighbours(urn: string, direction: 'OUTGOING' | 'INCOMING'): Promise<{ urns: string[]; more: number }> {
  const q = new URLSearchParams({ urn, relationshipTypes: 'DownstreamOf', direction, count: '100' });
  const page = await getJson<{ total: number; entities: Array<{ urn: string }> }>(`/openapi/relationships/v1/?${q}`);
  const urns = [...new Set(page.entities.map((e) => e.urn).filter((u) => u.startsWith('urn:li:dataset:')))];
  return { urns, more: page.total - page.entities.length };
}

/** The datasets' display names; a dataset not stored, or beyond the first 25, keeps the name in its urn. */
async function named(urns: readonly string[]): Promise<Map<string, Related>> {
  const refs = await entityRefs(urns, NAMED);
  return new Map(
    urns.map((u) => {
      const parts = datasetParts(u);
      const ref = refs.get(u);
      return [u, { urn: u, title: ref ? refName(ref) : parts.name, platform: parts.platform }];
    }),
  );
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
      if (live) setLineage({ upstream: pick(up.urns), downstream: pick(down.urns), more: up.more + down.more });
    })().catch((e: unknown) => live && setError(e));
    // Following a lineage link re-runs this for the next dataset: the previous one's answer must not land there.
    return () => {
      live = false;
    };
  }, [urn]);

  return (
    <section aria-labelledby="lineage-heading">
      <h2 id="lineage-heading">Lineage</h2>
      <p>
        <a href={lineageHref(urn, 2, 2)}>Open the lineage graph</a> <span class="muted">(upstream and downstream, hop by hop)</span>
      </p>
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

import { refName, type EntityRefView } from '../entity-ref.ts';
import { facetHref } from '../format.ts';

/**
 * Owners, tags, terms or a domain as names, each linking to the datasets that
 * share it (the list filtered by that facet). `label` names the list for screen readers.
 */
export function RefLinks({ refs, field, label, empty = '—' }: { refs: ReadonlyArray<EntityRefView>; field: string; label: string; empty?: string }) {
  if (refs.length === 0) return <span class="muted">{empty}</span>;
  return (
    <ul class={`chips chips-${field}`} aria-label={label}>
      {refs.map((r) => (
        <li>
          <a href={facetHref(field, r.urn)} title={r.urn}>
            {refName(r)}
          </a>
        </li>
      ))}
    </ul>
  );
}

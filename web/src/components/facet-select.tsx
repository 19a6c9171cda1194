import { refName, type EntityRefView } from '../entity-ref.ts';

export interface Facet {
  field: string;
  displayName: string | null;
  aggregations: Array<{ value: string; count: number; entity: EntityRefView | null }>;
}

/** One facet as a labelled select: every value with its count, named rather than shown as a urn. */
export function FacetSelect({
  facet,
  label,
  value,
  onChange,
}: {
  facet: Facet | undefined;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  // Most frequent first, then by the name people read (the server breaks ties by urn).
  const options = [...(facet?.aggregations ?? [])].sort(
    (a, b) => b.count - a.count || refName(a.entity, a.value).localeCompare(refName(b.entity, b.value)),
  );
  // The chosen value stays listed even when the other filters leave no match for it.
  const missing = value && !options.some((o) => o.value === value);
  return (
    <label>
      {label}
      <select aria-label={label} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">Any</option>
        {missing && <option value={value}>{refName(null, value)} (0)</option>}
        {options.map((o) => (
          <option value={o.value}>
            {refName(o.entity, o.value)} ({o.count})
          </option>
        ))}
      </select>
    </label>
  );
}

import { formatDate } from '../format.ts';

export interface DeprecationView {
  readonly deprecated: boolean;
  readonly note?: string | null;
  readonly decommissionTime?: number | null;
  readonly actor?: string | null;
}

/** The visible "Deprecated" mark, with note and decommission date on hover and for screen readers. */
export function DeprecationBadge({ deprecation }: { deprecation: DeprecationView | null | undefined }) {
  if (!deprecation?.deprecated) return null;
  const details = [deprecation.note || 'No note', deprecation.decommissionTime != null ? `Decommission: ${formatDate(deprecation.decommissionTime)}` : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <span class="badge badge-deprecated" title={details} aria-label={`Deprecated: ${details}`} tabIndex={0}>
      Deprecated
    </span>
  );
}

import { daysFromNow, formatDate } from '../format.ts';

export interface DeprecationView {
  readonly deprecated: boolean;
  readonly note?: string | null;
  readonly decommissionTime?: number | null;
  readonly actor?: string | null;
}

/** "in 12 days", "today", "3 days ago": how close the decommission date is. */
export function decommissionCountdown(millis: number): string {
  const days = daysFromNow(millis);
  if (days === 0) return 'decommission today';
  if (days > 0) return `decommission in ${days} day${days === 1 ? '' : 's'}`;
  return `decommission passed ${-days} day${days === -1 ? '' : 's'} ago`;
}

/**
 * The visible "Deprecated" mark, "Overdue" once the decommission date has passed (the server's OVERDUE state), with
 * the days to decommission; note and date on hover and for screen readers.
 */
export function DeprecationBadge({ deprecation, countdown = false }: { deprecation: DeprecationView | null | undefined; countdown?: boolean }) {
  if (!deprecation?.deprecated) return null;
  const details = [
    deprecation.note || 'No note',
    deprecation.decommissionTime != null ? `Decommission: ${formatDate(deprecation.decommissionTime)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const overdue = deprecation.decommissionTime != null && deprecation.decommissionTime < Date.now();
  const label = overdue ? 'Overdue' : 'Deprecated';
  return (
    <>
      <span class={`badge badge-deprecated${overdue ? ' badge-overdue' : ''}`} title={details} aria-label={`${label}: ${details}`} tabIndex={0}>
        {label}
      </span>
      {countdown && deprecation.decommissionTime != null && <span class="countdown">{decommissionCountdown(deprecation.decommissionTime)}</span>}
    </>
  );
}

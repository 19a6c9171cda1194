import { formatCount } from '../format.ts';

/** Previous and Next over a list answered a page at a time, with where the page is in the whole. */
export function Pager({
  start,
  size,
  total,
  none,
  onStart,
}: {
  start: number;
  size: number;
  total: number;
  none: string;
  onStart: (start: number) => void;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <button disabled={start === 0} onClick={() => onStart(Math.max(0, start - size))}>
        Previous
      </button>
      <span>{total === 0 ? none : `${start + 1}–${Math.min(start + size, total)} of ${formatCount(total)}`}</span>
      <button disabled={start + size >= total} onClick={() => onStart(start + size)}>
        Next
      </button>
    </nav>
  );
}

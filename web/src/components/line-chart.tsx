import { formatDate } from '../format.ts';

export interface Point {
  readonly t: number;
  readonly v: number;
}

const W = 640;
const H = 170;
const PAD = { left: 64, right: 12, top: 10, bottom: 26 };

/**
 * A time series as a plain SVG line with a dot per value: no chart library,
 * so the bundle stays small and the markup stays readable to screen readers
 * (the figure is labelled, and every dot carries its date and value as a title).
 */
export function LineChart({
  label,
  points,
  format,
  yMax,
}: {
  label: string;
  points: readonly Point[];
  format: (v: number) => string;
  yMax?: number;
}) {
  if (points.length === 0) return <p class="muted">No values for {label.toLowerCase()}.</p>;
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const t0 = sorted[0]!.t;
  const t1 = sorted.at(-1)!.t;
  const top = yMax ?? Math.max(...sorted.map((p) => p.v));
  const hi = top > 0 ? top : 1;
  const x = (t: number) => PAD.left + (t1 === t0 ? (W - PAD.left - PAD.right) / 2 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / hi) * (H - PAD.top - PAD.bottom);
  const path = sorted.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  return (
    <figure class="chart">
      <figcaption>{label}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${label}: ${sorted.length} values from ${formatDate(t0)} to ${formatDate(t1)}, latest ${format(sorted.at(-1)!.v)}`}
      >
        <line class="axis" x1={PAD.left} y1={y(0)} x2={W - PAD.right} y2={y(0)} />
        <line class="grid" x1={PAD.left} y1={y(hi)} x2={W - PAD.right} y2={y(hi)} />
        <text x={PAD.left - 6} y={y(hi) + 4} text-anchor="end">
          {format(hi)}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} text-anchor="end">
          {format(0)}
        </text>
        <text x={PAD.left} y={H - 6}>
          {formatDate(t0)}
        </text>
        <text x={W - PAD.right} y={H - 6} text-anchor="end">
          {formatDate(t1)}
        </text>
        <path class="line" d={path} />
        {sorted.map((p) => (
          <circle class="dot" cx={x(p.t)} cy={y(p.v)} r="3">
            <title>{`${formatDate(p.t)}: ${format(p.v)}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}

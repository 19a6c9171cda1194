import { useState } from 'preact/hooks';
import { formatCount, formatDate } from '../format.ts';
import { LineChart, type Point } from './line-chart.tsx';

export interface ProfileView {
  timestampMillis: number;
  rowCount: number | null;
  fieldProfiles: Array<{ fieldPath: string; nullCount: number | null; nullProportion: number | null }> | null;
}

/** A column's null fraction: the profiler's own proportion, else its null count over the row count. */
function nullFraction(p: ProfileView, fieldPath: string): number | null {
  const f = p.fieldProfiles?.find((x) => x.fieldPath === fieldPath);
  if (!f) return null;
  if (f.nullProportion != null) return f.nullProportion;
  return f.nullCount != null && p.rowCount ? f.nullCount / p.rowCount : null;
}

const percent = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.1 ? 1 : 0)}%`;

/** Row count and one column's null fraction over time, from the dataset's datasetProfile events. */
export function ProfileChart({ profiles }: { profiles: readonly ProfileView[] }) {
  const columns = [...new Set(profiles.flatMap((p) => (p.fieldProfiles ?? []).map((f) => f.fieldPath)))].sort();
  const [column, setColumn] = useState(columns[0] ?? '');
  if (profiles.length === 0) return <p>No profiles.</p>;
  const rows: Point[] = profiles.flatMap((p) => (p.rowCount != null ? [{ t: p.timestampMillis, v: p.rowCount }] : []));
  const nulls: Point[] = profiles.flatMap((p) => {
    const v = nullFraction(p, column);
    return v == null ? [] : [{ t: p.timestampMillis, v }];
  });
  return (
    <div class="profiles">
      <LineChart label="Row count" points={rows} format={formatCount} />
      {columns.length > 0 && (
        <>
          <label class="inline">
            Column
            <select value={column} onChange={(e) => setColumn((e.target as HTMLSelectElement).value)}>
              {columns.map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          </label>
          <LineChart label={`Null fraction of ${column}`} points={nulls} format={percent} yMax={1} />
        </>
      )}
      <details>
        <summary>Profile data ({profiles.length} profiles)</summary>
        <table class="profile-data">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Rows</th>
              {column && <th scope="col">Nulls in {column}</th>}
            </tr>
          </thead>
          <tbody>
            {profiles.map((p) => {
              const n = nullFraction(p, column);
              return (
                <tr>
                  <td>{formatDate(p.timestampMillis)}</td>
                  <td>{p.rowCount == null ? '—' : formatCount(p.rowCount)}</td>
                  {column && <td>{n == null ? '—' : percent(n)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
    </div>
  );
}

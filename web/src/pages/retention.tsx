import { useEffect, useState } from 'preact/hooks';
import type { RetentionPolicyWire, RetentionPreviewWire, RetentionRunWire } from '../../../src/api/wire/retention.ts';
import { deleteJson, getJson, postJson } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { TableHead } from '../components/table-head.tsx';
import { useMutations } from '../use-mutations.ts';

const DAY_SECONDS = 86_400;
const date = (millis: number | null) => (millis === null ? '–' : new Date(millis).toISOString().slice(0, 16).replace('T', ' '));
const days = (seconds: number | undefined) =>
  seconds === undefined ? '' : seconds % DAY_SECONDS === 0 ? `${seconds / DAY_SECONDS} days` : `${seconds} s`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const policyPath = (p: { entity: string; aspect: string }) => `/api/retention/${encodeURIComponent(p.entity)}/${encodeURIComponent(p.aspect)}`;

/**
 * Retention policies (GET/POST/DELETE /api/retention), what they would delete now (/api/retention/preview) and the
 * recent runs; a run can be started here, confirmed for indices over the allowed share.
 */
export function RetentionPage() {
  const [policies, setPolicies] = useState<RetentionPolicyWire[]>([]);
  const [preview, setPreview] = useState<{ maxDeletePercent: number; preview: RetentionPreviewWire[] } | null>(null);
  const [runs, setRuns] = useState<RetentionRunWire[]>([]);
  const [entity, setEntity] = useState('dataset');
  const [aspect, setAspect] = useState('datasetProfile');
  const [maxVersions, setMaxVersions] = useState('');
  const [maxAgeDays, setMaxAgeDays] = useState('90');
  const { error, setError, reload, run } = useMutations();

  useEffect(() => {
    getJson<{ policies: RetentionPolicyWire[] }>('/api/retention').then((d) => setPolicies(d.policies), setError);
    getJson<{ maxDeletePercent: number; preview: RetentionPreviewWire[] }>('/api/retention/preview').then(setPreview, setError);
    getJson<{ runs: RetentionRunWire[] }>('/api/retention/runs?limit=5').then((d) => setRuns(d.runs), setError);
  }, [reload]);

  const save = (e: Event) => {
    e.preventDefault();
    const versions = maxVersions.trim() === '' ? undefined : Number(maxVersions);
    const age = maxAgeDays.trim() === '' ? undefined : Math.round(Number(maxAgeDays) * DAY_SECONDS);
    void run(() =>
      postJson('/api/retention', {
        entity: entity.trim(),
        aspect: aspect.trim(),
        config: {
          retention: {
            ...(versions !== undefined ? { version: { maxVersions: versions } } : {}),
            ...(age !== undefined ? { time: { maxAgeInSeconds: age } } : {}),
          },
        },
      }),
    );
  };
  const remove = (p: RetentionPolicyWire) => {
    if (!confirm(`Delete the retention policy of ${p.entity} ${p.aspect}? What it governed is kept from then on.`)) return;
    void run(() => deleteJson(policyPath(p)));
  };
  const runNow = (confirmed: boolean) => void run(() => postJson('/api/retention/run', confirmed ? { confirm: true } : {}));
  const guarded = preview?.preview.filter((p) => p.needsConfirmation) ?? [];

  return (
    <main>
      <h1>Retention</h1>
      <form class="panel" onSubmit={save} aria-label="Set a retention policy">
        <label>
          Entity type (* for all)
          <input name="retention-entity" value={entity} onInput={(e) => setEntity((e.target as HTMLInputElement).value)} required />
        </label>
        <label>
          Aspect (* for all)
          <input name="retention-aspect" value={aspect} onInput={(e) => setAspect((e.target as HTMLInputElement).value)} required />
        </label>
        <label>
          Keep at most (versions)
          <input
            name="retention-versions"
            type="number"
            min="1"
            value={maxVersions}
            onInput={(e) => setMaxVersions((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Keep younger than (days)
          <input
            name="retention-days"
            type="number"
            min="1"
            value={maxAgeDays}
            onInput={(e) => setMaxAgeDays((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary">
          Save policy
        </button>
      </form>
      <ErrorBox error={error} />
      <table class="retention-policies">
        <TableHead columns={['Entity', 'Aspect', 'Max versions', 'Max age', 'Source', 'Updated']} />
        <tbody>
          {policies.map((p) => (
            <tr data-policy={`${p.entity} ${p.aspect}`}>
              <td>{p.entity}</td>
              <td>{p.aspect}</td>
              <td>{p.config.retention.version?.maxVersions ?? ''}</td>
              <td>{days(p.config.retention.time?.maxAgeInSeconds)}</td>
              <td>{p.source}</td>
              <td>
                {date(p.updatedAt)} by {p.updatedBy}
              </td>
              <td>
                <button onClick={() => remove(p)} aria-label={`Delete ${p.entity} ${p.aspect}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>What the policies would delete now</h2>
      {preview && preview.preview.length === 0 && <p>Nothing: no policy governs stored rows or earlier versions.</p>}
      {preview && preview.preview.length > 0 && (
        <table class="retention-preview">
          <TableHead columns={['Policy', 'Index or aspect', 'Would delete', 'Share', 'Bytes', 'Oldest kept', 'Newest kept', '']} />
          <tbody>
            {preview.preview.map((p) => (
              <tr data-preview={`${p.entityType} ${p.aspect}`}>
                <td>
                  {p.policy.entity} {p.policy.aspect}
                </td>
                <td>
                  {p.entityType} {p.aspect} ({p.kind})
                </td>
                <td class="delete">
                  {p.delete.toLocaleString('en-US')} of {p.total.toLocaleString('en-US')} {p.kind === 'timeseries' ? 'rows' : 'versions'}
                </td>
                <td>{p.sharePercent.toFixed(2)}%</td>
                <td>
                  {p.bytesEstimated ? '~' : ''}
                  {mb(p.bytes)}
                </td>
                <td>{date(p.oldestKeptMillis)}</td>
                <td>{date(p.newestKeptMillis)}</td>
                <td>{p.needsConfirmation ? <strong class="warning">over {preview.maxDeletePercent}%: skipped unless confirmed</strong> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <button class="primary" onClick={() => runNow(false)}>
          Run now
        </button>{' '}
        {guarded.length > 0 && <button onClick={() => runNow(true)}>Run now, confirming {guarded.length} over the share</button>}
      </p>
      <h2>Recent runs</h2>
      <table class="retention-runs">
        <TableHead columns={['Run', 'Trigger', 'State', 'Started', 'What it did']} />
        <tbody>
          {runs.map((r) => (
            <tr data-run={r.id}>
              <td>{r.id}</td>
              <td>{r.trigger}</td>
              <td>{r.state}</td>
              <td>{date(r.startedAt)}</td>
              <td>
                {r.outcomes
                  .map(
                    (o) =>
                      `${o.entityType} ${o.aspect}: ${o.outcome}${o.rowsToDelete !== undefined ? ` ${o.rowsToDelete} rows` : ''}${o.versionsDeleted !== undefined ? ` ${o.versionsDeleted} versions` : ''}`,
                  )
                  .join('; ') || 'nothing to delete'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

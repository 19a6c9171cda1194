import { useEffect, useState } from 'preact/hooks';
import { action, getJson } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { formatBytes, formatCount, formatDate, formatDateTime } from '../format.ts';
import { canTruncate, type Me } from '../me.ts';

import type { IndexSizeWire as IndexSize, TaskWire as Task } from '../../../src/api/wire/timeseries.ts';

const DAY = 86_400_000;
const FINISHED = new Set(['completed', 'failed', 'timed_out', 'cancelled']);

/** Every timeseries index with its size, a dry-run preview of a truncation, and its execution with live progress. */
export function TimeseriesPage({ me }: { me: Me | null }) {
  const [indices, setIndices] = useState<IndexSize[]>([]);
  const [tasks, setTasks] = useState<Task[]>([]);
  const [picked, setPicked] = useState<IndexSize | null>(null);
  const [mode, setMode] = useState<'days' | 'date'>('days');
  const [days, setDays] = useState('90');
  const [date, setDate] = useState('');
  const [preview, setPreview] = useState<{ message: string; rows: number; total: number; cutoff: number } | null>(null);
  const [running, setRunning] = useState<Task | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    action<{ indexSizes: IndexSize[] }>('operations', 'getIndexSizes').then(
      (v) => setIndices([...v.indexSizes].sort((a, b) => b.sizeInMb - a.sizeInMb)),
      setError,
    );
    getJson<{ tasks: Task[] }>('/api/tasks').then((v) => setTasks(v.tasks), setError);
  }, [reload]);

  useEffect(() => {
    if (!running || FINISHED.has(running.state)) return;
    const timer = setTimeout(() => {
      getJson<Task>(`/api/tasks/${encodeURIComponent(running.id)}`).then((t) => {
        setRunning(t);
        if (FINISHED.has(t.state)) setReload((r) => r + 1);
      }, setError);
    }, 500);
    return () => clearTimeout(timer);
  }, [running]);

  const cutoff = (): number => (mode === 'days' ? Date.now() - Number(days) * DAY : Date.parse(`${date}T00:00:00Z`));
  const largest = Math.max(1, ...indices.map((i) => i.sizeInMb));

  const dryRun = async (e: Event) => {
    e.preventDefault();
    if (!picked) return;
    setError(null);
    const endTimeMillis = cutoff();
    if (!Number.isFinite(endTimeMillis)) return setError(new Error('Pick a date or a number of days.'));
    try {
      const message = await action<string>('operations', 'truncateTimeseriesAspect', {
        entityType: picked.entityName,
        aspect: picked.aspectName,
        endTimeMillis,
      });
      const [rows = 0, total = 0] = (message.match(/\d+/g) ?? []).map(Number);
      setPreview({ message, rows, total, cutoff: endTimeMillis });
    } catch (err) {
      setError(err);
    }
  };

  const execute = async () => {
    if (!picked || !preview) return;
    if (
      !confirm(
        `Delete ${formatCount(preview.rows)} rows older than ${formatDateTime(preview.cutoff)} from ${picked.indexName}? This cannot be undone.`,
      )
    )
      return;
    try {
      const id = await action<string>('operations', 'truncateTimeseriesAspect', {
        entityType: picked.entityName,
        aspect: picked.aspectName,
        endTimeMillis: preview.cutoff,
        dryRun: false,
      });
      const task = await getJson<Task>(`/api/tasks/${encodeURIComponent(id)}`);
      setRunning(task);
      // A small task may already be over: the poll below never runs, so refresh the history now.
      if (FINISHED.has(task.state)) setReload((r) => r + 1);
      setPreview(null);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <main>
      <h1>Timeseries indices</h1>
      <table class="indices">
        <thead>
          <tr>
            <th scope="col">Index</th>
            <th scope="col">Size</th>
            <th scope="col">Rows</th>
            <th scope="col">Oldest</th>
            <th scope="col">Newest</th>
            <th scope="col">
              <span class="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {indices.map((ix) => (
            <tr data-index={ix.indexName}>
              <td>{ix.indexName}</td>
              <td>
                <div class="bar" style={{ width: `${Math.max(2, (ix.sizeInMb / largest) * 100)}%` }} aria-hidden="true" />
                {formatBytes(ix.sizeInMb * 1_000_000)}
              </td>
              <td>{formatCount(ix.rowCount)}</td>
              <td>{formatDate(ix.oldestTimestampMillis ?? null)}</td>
              <td>{formatDate(ix.newestTimestampMillis ?? null)}</td>
              <td>
                {canTruncate(me) && (
                  <button
                    onClick={() => {
                      setPicked(ix);
                      setPreview(null);
                    }}
                    aria-label={`Truncate ${ix.indexName}`}
                  >
                    Truncate…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {picked && (
        <form class="panel" onSubmit={dryRun} aria-label="Truncate an index">
          <h2>Truncate {picked.indexName}</h2>
          <fieldset>
            <legend>Delete rows older than</legend>
            <label class="inline">
              <input type="radio" name="mode" checked={mode === 'days'} onChange={() => setMode('days')} />
              <input type="number" min="0" aria-label="Days" value={days} onInput={(e) => setDays((e.target as HTMLInputElement).value)} /> days ago
            </label>
            <label class="inline">
              <input type="radio" name="mode" checked={mode === 'date'} onChange={() => setMode('date')} />
              <input
                type="date"
                aria-label="Date"
                value={date}
                onInput={(e) => {
                  setDate((e.target as HTMLInputElement).value);
                  setMode('date');
                }}
              />
            </label>
          </fieldset>
          <button type="submit">Preview (dry run)</button>
          {preview && (
            <div class="preview" role="status">
              <p>{preview.message}</p>
              <p>
                {formatCount(preview.rows)} of {formatCount(preview.total)} rows (
                {preview.total ? ((preview.rows / preview.total) * 100).toFixed(2) : '0.00'}%), about{' '}
                {formatBytes(preview.total ? (picked.sizeInMb * 1_000_000 * preview.rows) / preview.total : 0)} freed.
              </p>
              <button type="button" class="danger" onClick={execute} disabled={preview.rows === 0}>
                Execute…
              </button>
            </div>
          )}
        </form>
      )}
      {running && (
        <section class="panel" aria-live="polite">
          <h2>
            Task {running.id}: {running.state}
          </h2>
          <progress max={Math.max(1, running.rowsToDelete)} value={running.rowsDeleted} />
          <p>
            {formatCount(running.rowsDeleted)} of {formatCount(running.rowsToDelete)} rows deleted
          </p>
          {running.error && <p class="error">{running.error}</p>}
        </section>
      )}
      <ErrorBox error={error} />
      <h2>Task history</h2>
      <table class="tasks">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Index</th>
            <th scope="col">Cutoff</th>
            <th scope="col">State</th>
            <th scope="col">Deleted</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((t) => (
            <tr>
              <td>{t.id}</td>
              <td>{t.index.indexName}</td>
              <td>{formatDateTime(t.cutoffMillis)}</td>
              <td>{t.state}</td>
              <td>
                {formatCount(t.rowsDeleted)} / {formatCount(t.rowsToDelete)}
              </td>
              <td>{formatDateTime(t.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

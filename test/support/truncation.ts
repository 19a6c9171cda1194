import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest, type HttpResult } from './server.ts';

/** Anything that can send a request the way TestServer.request does. */
export type Requester = (method: string, path: string, options?: { body?: unknown; auth?: string | null }) => Promise<HttpResult>;

export const DAY = 24 * 60 * 60 * 1000;
export const HOUR = 60 * 60 * 1000;
/** Midnight UTC, the start of a day partition. */
export const T0 = Date.UTC(2025, 0, 1);

export const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

const proposal = (urn: string, aspectName: string, value: unknown, entityType = 'dataset') => ({
  entityType,
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});

/** Creates the dataset (status first: timeseries aspects need an existing entity). */
export async function createDataset(request: Requester, urn: string): Promise<void> {
  const res = await request('POST', '/aspects?action=ingestProposal', { body: { proposal: proposal(urn, 'status', { removed: false }) } });
  assert.equal(res.status, 200, res.text);
}

/** Ingests one datasetProfile (or another timeseries aspect) event per timestamp. */
export async function ingestEvents(request: Requester, urn: string, stamps: readonly number[], aspectName = 'datasetProfile'): Promise<void> {
  for (let i = 0; i < stamps.length; i += 500) {
    const proposals = stamps.slice(i, i + 500).map((ts) => proposal(urn, aspectName, { timestampMillis: ts, rowCount: ts % 1000 }));
    const res = await request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
    assert.equal(res.status, 200, res.text);
  }
}

/** `perDay` events on each of `days` days from T0, one an hour from midnight. */
export const hourly = (days: number, perDay: number, fromDay = 0): number[] =>
  Array.from({ length: days * perDay }, (_, i) => T0 + (fromDay + Math.floor(i / perDay)) * DAY + (i % perDay) * HOUR);

/** The timestamps stored for one urn, oldest first. */
export async function storedStamps(request: Requester, urn: string, aspect = 'datasetProfile'): Promise<number[]> {
  const PAGE = 10_000;
  const stamps: number[] = [];
  // Newest first, a page at a time (the server's largest limit), each page ending before the oldest one seen.
  for (let end: number | undefined; ;) {
    const body = { urn, entity: 'dataset', aspect, limit: PAGE, ...(end !== undefined ? { endTimeMillis: end } : {}) };
    const res = await request('POST', '/aspects?action=getTimeseriesAspectValues', { body });
    assert.equal(res.status, 200, res.text);
    const page = (res.json.value.values as Array<{ aspect: { value: string } }>).map(
      (v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis,
    );
    stamps.push(...page);
    if (page.length < PAGE) return stamps.sort((a, b) => a - b);
    end = page[page.length - 1]! - 1;
  }
}

export function truncate(request: Requester, body: Record<string, unknown>): Promise<HttpResult> {
  return request('POST', '/api/gms/operations?action=truncateTimeseriesAspect', { body });
}

/** (rows older than the cutoff, all rows) as the dry-run message reports them. */
export async function dryRunCounts(request: Requester, aspect: string, endTimeMillis: number): Promise<[number, number]> {
  const res = await truncate(request, { entityType: 'dataset', aspect, endTimeMillis });
  assert.equal(res.status, 200, res.text);
  const m = /^Delete (\d+) out of (\d+) rows/.exec(res.json.value as string);
  assert.ok(m, res.text);
  return [Number(m[1]), Number(m[2])];
}

/** Starts a real truncation and returns its task id. */
export async function startTruncation(request: Requester, body: Record<string, unknown>): Promise<string> {
  const res = await truncate(request, { entityType: 'dataset', aspect: 'datasetProfile', ...body, dryRun: false });
  assert.equal(res.status, 200, res.text);
  assert.match(res.json.value as string, /^[a-zA-Z0-9_-]+:[0-9]+$/);
  return res.json.value as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskJson = any;

/**
 * Polls GET /api/tasks/{id} until `done` holds (a condition, not a fixed sleep);
 * the server holds each poll until the task stops running or 200 ms pass.
 */
export async function waitForTask(request: Requester, id: string, done: (t: TaskJson) => boolean, timeoutMillis = 20_000): Promise<TaskJson> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const res = await request('GET', `/api/tasks/${id}?waitMillis=200`);
    assert.equal(res.status, 200, res.text);
    if (done(res.json)) return res.json;
    if (Date.now() > deadline) assert.fail(`task ${id} did not reach the expected state: ${res.text}`);
    await sleep(10);
  }
}

export const ended = (t: TaskJson) => t.state !== 'running';
/** Ended, and the index measured and its space reclaimed afterwards. */
export const settled = (t: TaskJson) => t.state !== 'running' && t.reclaimedBytes !== null;

/** A Requester for a server in another process, authenticated with `token`. */
export function httpRequester(baseUrl: string, token: string): Requester {
  return (method, path, options = {}) => httpRequest(baseUrl, method, path, { body: options.body, auth: `Bearer ${token}` });
}

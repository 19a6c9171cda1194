import { badRequest } from '../errors.ts';

/**
 * An OpenLineage event after its wire form has been checked: the run event (OpenLineage 2's RunEvent), the job event
 * (JobEvent: a job without a run) or the dataset event (DatasetEvent). Only the fields the mapping reads are typed;
 * facets stay plain JSON, read where they are mapped.
 */
export type OpenLineageEvent = RunEvent | JobEvent | DatasetEvent;

export const EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'FAIL', 'ABORT', 'OTHER'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type Facets = Readonly<Record<string, unknown>>;

export interface OlDataset {
  readonly namespace: string;
  readonly name: string;
  readonly facets: Facets;
}

export interface OlJob {
  readonly namespace: string;
  readonly name: string;
  readonly facets: Facets;
}

export interface RunEvent {
  readonly kind: 'run';
  readonly eventType: EventType;
  readonly eventTime: number;
  readonly producer: string;
  readonly run: { readonly runId: string; readonly facets: Facets };
  readonly job: OlJob;
  readonly inputs: readonly OlDataset[];
  readonly outputs: readonly OlDataset[];
}

export interface JobEvent {
  readonly kind: 'job';
  readonly eventTime: number;
  readonly producer: string;
  readonly job: OlJob;
  readonly inputs: readonly OlDataset[];
  readonly outputs: readonly OlDataset[];
}

export interface DatasetEvent {
  readonly kind: 'dataset';
  readonly eventTime: number;
  readonly producer: string;
  readonly dataset: OlDataset;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 date-time, as the spec's `format: date-time` says; Date.parse alone accepts far more. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const field = (path: string) => `Field '${path}'`;

function requiredString(obj: Record<string, unknown>, key: string, path: string): string {
  const v = obj[key];
  if (v === undefined || v === null) throw badRequest(`${field(path)} is required`);
  if (typeof v !== 'string') throw badRequest(`${field(path)} must be a string`);
  if (v.trim() === '') throw badRequest(`${field(path)} must not be empty`);
  return v;
}

function requiredObject(obj: Record<string, unknown>, key: string, path: string): Record<string, unknown> {
  const v = obj[key];
  if (v === undefined || v === null) throw badRequest(`${field(path)} is required`);
  if (!isObject(v)) throw badRequest(`${field(path)} must be an object`);
  return v;
}

function facets(obj: Record<string, unknown>, path: string): Facets {
  const v = obj.facets;
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw badRequest(`${field(`${path}.facets`)} must be an object`);
  return v;
}

function eventTime(raw: Record<string, unknown>): number {
  const v = requiredString(raw, 'eventTime', 'eventTime');
  const ms = Date.parse(v);
  if (!DATE_TIME.test(v) || Number.isNaN(ms)) throw badRequest(`${field('eventTime')} must be an ISO 8601 date-time, got ${JSON.stringify(v)}`);
  return ms;
}

function job(raw: Record<string, unknown>): OlJob {
  const j = requiredObject(raw, 'job', 'job');
  return { namespace: requiredString(j, 'namespace', 'job.namespace'), name: requiredString(j, 'name', 'job.name'), facets: facets(j, 'job') };
}

function dataset(raw: unknown, path: string): OlDataset {
  if (!isObject(raw)) throw badRequest(`${field(path)} must be an object`);
  return {
    namespace: requiredString(raw, 'namespace', `${path}.namespace`),
    name: requiredString(raw, 'name', `${path}.name`),
    facets: facets(raw, path),
  };
}

function datasets(raw: Record<string, unknown>, key: 'inputs' | 'outputs'): OlDataset[] {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest(`${field(key)} must be an array`);
  return v.map((d, i) => dataset(d, `${key}[${i}]`));
}

/**
 * Checks one event as DataHub's endpoint reads it: an object with `run` and `job` is a run event, one with `dataset`
 * a dataset event, anything else a job event. Every refusal names the field.
 */
export function parseOpenLineageEvent(raw: unknown): OpenLineageEvent {
  if (!isObject(raw)) throw badRequest('The request body must be one OpenLineage event: a JSON object');
  const time = eventTime(raw);
  const producer = requiredString(raw, 'producer', 'producer');
  if (isObject(raw.run) && isObject(raw.job)) {
    const run = raw.run;
    const runId = requiredString(run, 'runId', 'run.runId');
    if (!UUID.test(runId)) throw badRequest(`${field('run.runId')} must be a UUID, got ${JSON.stringify(runId)}`);
    const type = requiredString(raw, 'eventType', 'eventType');
    if (!(EVENT_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`${field('eventType')} must be one of ${EVENT_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    }
    return {
      kind: 'run',
      eventType: type as EventType,
      eventTime: time,
      producer,
      run: { runId: runId.toLowerCase(), facets: facets(run, 'run') },
      job: job(raw),
      inputs: datasets(raw, 'inputs'),
      outputs: datasets(raw, 'outputs'),
    };
  }
  if (raw.run !== undefined && !isObject(raw.run)) throw badRequest(`${field('run')} must be an object`);
  if (raw.dataset !== undefined) return { kind: 'dataset', eventTime: time, producer, dataset: dataset(raw.dataset, 'dataset') };
  return { kind: 'job', eventTime: time, producer, job: job(raw), inputs: datasets(raw, 'inputs'), outputs: datasets(raw, 'outputs') };
}

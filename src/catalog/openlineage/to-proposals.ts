import { badRequest } from '../errors.ts';
import type { Proposal } from '../proposals.ts';
import { olDatasetUrn, platformOf, schemaFieldUrn } from './dataset-urn.ts';
import {
  isObject,
  type DatasetEvent,
  type EventType,
  type Facets,
  type JobEvent,
  type OlDataset,
  type OpenLineageEvent,
  type RunEvent,
} from './event.ts';

/** The actor DataHub's converter stamps on edges and run properties. */
const CONVERTER_ACTOR = 'urn:li:corpuser:datahub';
const PRODUCER_PATTERN = /^https:\/\/github\.com\/OpenLineage\/OpenLineage\/.*\/(.*)$/;

const upsert = (entityType: string, urn: string, aspectName: string, value: unknown): Proposal => ({
  entityType,
  urn,
  changeType: 'UPSERT',
  aspectName,
  value,
  systemMetadata: null,
});

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const facet = (facets: Facets, name: string): Record<string, unknown> | undefined => {
  const f = facets[name];
  return isObject(f) ? f : undefined;
};

/**
 * DataHub's getOrchestrator: the processing_engine facet's name, else the producer URI (OpenLineage's own
 * integrations by their last path segment, Airflow and Trino by their repository, any other by its last segment).
 */
export function orchestratorOf(producer: string, runFacets: Facets): string {
  const engine = str(facet(runFacets, 'processing_engine')?.name);
  if (engine) return engine.toLowerCase();
  const match = PRODUCER_PATTERN.exec(producer);
  if (match) return match[1]!;
  if (producer.startsWith('https://github.com/apache/airflow/')) return 'airflow';
  if (producer.startsWith('https://github.com/trinodb/trino/')) return 'trino';
  let path: string | undefined;
  try {
    path = new URL(producer).pathname;
  } catch {
    path = undefined;
  }
  const segment = path
    ?.replace(/\/+$/, '')
    .split('/')
    .reverse()
    .find((s) => s !== '');
  if (!segment)
    throw badRequest(`Field 'producer' ${JSON.stringify(producer)} names no orchestrator: send a URI with a path, or a processing_engine run facet`);
  return segment.toLowerCase();
}

/** The flow is the job name up to its first dot; its cluster is the job's namespace. */
export function flowUrnOf(namespace: string, jobName: string, orchestrator: string): string {
  return `urn:li:dataFlow:(${orchestrator},${jobName.split('.')[0]},${namespace})`;
}

/** DataHub's generateCustomProperties from the processing_engine facet (the Spark and Airflow facets are not mapped). */
function customProperties(runFacets: Facets): Record<string, string> {
  const engine = facet(runFacets, 'processing_engine');
  const props: Record<string, string> = {};
  if (!engine) return props;
  if (typeof engine.name === 'string') props.processingEngine = engine.name;
  if (typeof engine.version === 'string') props.processingEngineVersion = engine.version;
  if (typeof engine.openlineageAdapterVersion === 'string') props.openlineageAdapterVersion = engine.openlineageAdapterVersion;
  return props;
}

/** convertOlFieldTypeToDHFieldType. */
function fieldType(type: unknown): Record<string, unknown> {
  switch (type) {
    case 'string':
      return { 'com.linkedin.schema.StringType': {} };
    case 'long':
    case 'int':
      return { 'com.linkedin.schema.NumberType': {} };
    case 'timestamp':
      return { 'com.linkedin.schema.TimeType': {} };
    case 'struct':
      return { 'com.linkedin.schema.MapType': {} };
    default:
      return { 'com.linkedin.schema.NullType': {} };
  }
}

/** getSchemaMetadata: the schema facet's fields, their JSON kept as a MySQL DDL platform schema. */
export function schemaMetadataOf(dataset: OlDataset, urn: string, path: string): Record<string, unknown> | undefined {
  const schema = facet(dataset.facets, 'schema');
  if (!schema || schema.fields === undefined || schema.fields === null) return undefined;
  if (!Array.isArray(schema.fields)) throw badRequest(`Field '${path}.facets.schema.fields' must be an array`);
  const fields = schema.fields.map((f: unknown, i) => {
    const at = `${path}.facets.schema.fields[${i}]`;
    if (!isObject(f) || typeof f.name !== 'string') throw badRequest(`Field '${at}.name' is required and must be a string`);
    if (f.type !== undefined && f.type !== null && typeof f.type !== 'string') throw badRequest(`Field '${at}.type' must be a string`);
    return {
      fieldPath: f.name,
      nativeDataType: str(f.type) ?? '',
      type: { type: fieldType(f.type) },
      nullable: false,
      recursive: false,
      isPartOfKey: false,
    };
  });
  return {
    schemaName: '',
    platform: platformOf(urn),
    version: 1,
    hash: '',
    platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: JSON.stringify(schema.fields) } },
    fields,
  };
}

/**
 * getFineGrainedLineage: one entry per column of the columnLineage facet, from the columns it is computed from
 * (sorted, deduplicated datasets), with DataHub's fixed confidence 0.5 and the transformations as `TYPE:SUBTYPE`.
 */
function fineGrainedLineagesOf(dataset: OlDataset, urn: string, path: string, sql: string | undefined): Record<string, unknown>[] {
  const columnLineage = facet(dataset.facets, 'columnLineage');
  if (!columnLineage || columnLineage.fields === undefined || columnLineage.fields === null) return [];
  if (!isObject(columnLineage.fields)) throw badRequest(`Field '${path}.facets.columnLineage.fields' must be an object`);
  const out: Record<string, unknown>[] = [];
  for (const [column, spec] of Object.entries(columnLineage.fields)) {
    const at = `${path}.facets.columnLineage.fields.${column}`;
    if (!isObject(spec) || !Array.isArray(spec.inputFields)) throw badRequest(`Field '${at}.inputFields' is required and must be an array`);
    const upstreams: string[] = [];
    const transformations = new Set<string>();
    spec.inputFields.forEach((input: unknown, i) => {
      const ip = `${at}.inputFields[${i}]`;
      if (!isObject(input)) throw badRequest(`Field '${ip}' must be an object`);
      for (const key of ['namespace', 'name', 'field'] as const) {
        if (typeof input[key] !== 'string') throw badRequest(`Field '${ip}.${key}' is required and must be a string`);
      }
      if (Array.isArray(input.transformations)) {
        for (const t of input.transformations) if (isObject(t)) transformations.add(`${String(t.type)}:${String(t.subtype)}`);
      }
      const upstreamDataset = olDatasetUrn({ namespace: input.namespace as string, name: input.name as string, facets: {} });
      upstreams.push(schemaFieldUrn(upstreamDataset, input.field as string));
    });
    if (upstreams.length === 0) continue;
    let operation = [...transformations].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())).join(',');
    if (sql !== undefined && sql.trim() !== '') operation = operation === '' ? sql : `-- ${operation}\n${sql}`;
    out.push({
      upstreamType: 'FIELD_SET',
      upstreams: upstreams.sort(),
      downstreamType: 'FIELD_SET',
      downstreams: [schemaFieldUrn(urn, column)],
      transformOperation: operation,
      confidenceScore: 0.5,
    });
  }
  return out;
}

interface MappedDataset {
  readonly urn: string;
  readonly schema?: Record<string, unknown>;
  readonly fineGrained: readonly Record<string, unknown>[];
}

/** Each distinct dataset once, in urn order (DataHub keeps them in a TreeSet by urn). */
function mapDatasets(list: readonly OlDataset[], key: 'inputs' | 'outputs', sql: string | undefined): MappedDataset[] {
  const byUrn = new Map<string, MappedDataset>();
  list.forEach((d, i) => {
    const urn = olDatasetUrn(d);
    const path = `${key}[${i}]`;
    if (!byUrn.has(urn)) byUrn.set(urn, { urn, schema: schemaMetadataOf(d, urn, path), fineGrained: fineGrainedLineagesOf(d, urn, path, sql) });
  });
  return [...byUrn.values()].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
}

const edge = (urn: string, time: number) => ({ destinationUrn: urn, lastModified: { time, actor: CONVERTER_ACTOR } });

/** materializeDataset and includeSchemaMetadata, both on by default in DataHub: key, status and schema per dataset. */
function datasetProposals(d: MappedDataset): Proposal[] {
  const name = d.urn.slice(d.urn.indexOf(',') + 1, d.urn.lastIndexOf(','));
  const key = { platform: platformOf(d.urn), name, origin: d.urn.slice(d.urn.lastIndexOf(',') + 1, -1) };
  return [
    upsert('dataset', d.urn, 'datasetKey', key),
    upsert('dataset', d.urn, 'status', { removed: false }),
    ...(d.schema ? [upsert('dataset', d.urn, 'schemaMetadata', d.schema)] : []),
  ];
}

/** convertRunEventToJob then DatahubJob.toMcps, in UPSERT mode (DataHub's default `usePatch: false`). */
function jobProposals(event: RunEvent | JobEvent, runFacets: Facets): { proposals: Proposal[]; jobUrn: string; inputs: string[]; outputs: string[] } {
  const { job, eventTime } = event;
  const orchestrator = orchestratorOf(event.producer, runFacets);
  const flowUrn = flowUrnOf(job.namespace, job.name, orchestrator);
  const jobUrn = `urn:li:dataJob:(${flowUrn},${job.name})`;
  const description = str(facet(job.facets, 'documentation')?.description);
  const sql = str(facet(job.facets, 'sql')?.query);
  const props = customProperties(runFacets);
  const flowInfo = { name: job.name.split('.')[0], customProperties: props, ...(description !== undefined ? { description } : {}) };
  const displayName = job.name.includes('.') ? job.name.slice(job.name.indexOf('.') + 1) : job.name;
  const jobInfo = {
    name: displayName,
    type: { string: orchestrator },
    flowUrn,
    customProperties: props,
    created: { time: eventTime },
    ...(description !== undefined ? { description } : {}),
  };
  const inputs = mapDatasets(event.inputs, 'inputs', sql);
  const outputs = mapDatasets(event.outputs, 'outputs', sql);
  const proposals: Proposal[] = [
    upsert('dataFlow', flowUrn, 'dataFlowInfo', flowInfo),
    upsert('dataFlow', flowUrn, 'status', { removed: false }),
    upsert('dataJob', jobUrn, 'dataJobInfo', jobInfo),
    upsert('dataJob', jobUrn, 'status', { removed: false }),
    ...inputs.flatMap(datasetProposals),
    ...outputs.flatMap(datasetProposals),
    upsert('dataJob', jobUrn, 'dataJobInputOutput', {
      inputDatasets: [],
      inputDatasetEdges: inputs.map((d) => edge(d.urn, eventTime)),
      outputDatasets: [],
      outputDatasetEdges: outputs.map((d) => edge(d.urn, eventTime)),
      inputDatajobs: [],
      fineGrainedLineages: [...inputs, ...outputs].flatMap((d) => d.fineGrained),
    }),
  ];
  return { proposals, jobUrn, inputs: inputs.map((d) => d.urn), outputs: outputs.map((d) => d.urn) };
}

/**
 * processDataProcessInstanceResult: START and RUNNING are STARTED; the others COMPLETE with their result. OTHER, which
 * DataHub maps to an event without the required status, says nothing about the run's state: no event is written.
 */
export function runEventOf(eventType: EventType, eventTime: number): Record<string, unknown> | undefined {
  switch (eventType) {
    case 'START':
    case 'RUNNING':
      return { timestampMillis: eventTime, status: 'STARTED' };
    case 'COMPLETE':
      return { timestampMillis: eventTime, status: 'COMPLETE', result: { type: 'SUCCESS', nativeResultType: eventType } };
    case 'FAIL':
    case 'ABORT':
      return { timestampMillis: eventTime, status: 'COMPLETE', result: { type: 'FAILURE', nativeResultType: eventType } };
    case 'OTHER':
      return undefined;
  }
}

function runProposals(event: RunEvent): Proposal[] {
  const { proposals, jobUrn, inputs, outputs } = jobProposals(event, event.run.facets);
  const dpi = `urn:li:dataProcessInstance:${event.run.runId}`;
  const runEvent = runEventOf(event.eventType, event.eventTime);
  return [
    ...proposals,
    upsert('dataProcessInstance', dpi, 'dataProcessInstanceInput', { inputs }),
    upsert('dataProcessInstance', dpi, 'dataProcessInstanceOutput', { outputs }),
    upsert('dataProcessInstance', dpi, 'dataProcessInstanceProperties', {
      name: event.run.runId,
      created: { time: event.eventTime, actor: CONVERTER_ACTOR },
      customProperties: {},
    }),
    ...(runEvent ? [upsert('dataProcessInstance', dpi, 'dataProcessInstanceRunEvent', runEvent)] : []),
    upsert('dataProcessInstance', dpi, 'dataProcessInstanceRelationships', { parentTemplate: jobUrn, upstreamInstances: [] }),
  ];
}

/** convertDatasetEventToMcps: the dataset's key and status always, its schema and documentation when given. */
function datasetEventProposals(event: DatasetEvent): Proposal[] {
  const urn = olDatasetUrn(event.dataset);
  const description = str(facet(event.dataset.facets, 'documentation')?.description);
  return [
    ...datasetProposals({ urn, schema: schemaMetadataOf(event.dataset, urn, 'dataset'), fineGrained: [] }),
    ...(description !== undefined ? [upsert('dataset', urn, 'datasetProperties', { description, customProperties: {} })] : []),
  ];
}

/** The proposals DataHub's converter makes of one event, in its order: written together or not at all. */
export function openLineageProposals(event: OpenLineageEvent): Proposal[] {
  switch (event.kind) {
    case 'run':
      return runProposals(event);
    case 'job':
      return jobProposals(event, {}).proposals;
    case 'dataset':
      return datasetEventProposals(event);
  }
}

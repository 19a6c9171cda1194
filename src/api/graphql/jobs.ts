import { parseUrn } from '../../catalog/urn.ts';
import {
  auditStamp,
  COMMON,
  deprecationField,
  existsField,
  fromAspect,
  keyField,
  named,
  platformFromKey,
  refField,
  refFromAspect,
  statusField,
  str,
  subTypesField,
} from './entity-fields.ts';
import { badRequest } from '../../catalog/errors.ts';
import { entityRef, keyPart, type EntitySource } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * Dashboards, charts, data flows, data jobs and their runs (data process
 * instances), with DataHub's type and field names: what datahub-gc's data
 * process cleanup and DataHub's display-name fragment select.
 */
const typeDefs = /* GraphQL */ `
  extend type Query {
    "A data job by urn, or null when it does not exist."
    dataJob(urn: String!): DataJob
    "A data flow by urn, or null when it does not exist."
    dataFlow(urn: String!): DataFlow
  }

  type Dashboard implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    tool: String!
    dashboardId: String!
    "From the dashboardInfo aspect (its title is the name)."
    properties: DashboardProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    subTypes: SubTypes
    exists: Boolean
  }

  type DashboardProperties {
    name: String!
    description: String
    externalUrl: String
  }

  type Chart implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    tool: String!
    chartId: String!
    "From the chartInfo aspect (its title is the name)."
    properties: ChartProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    subTypes: SubTypes
    exists: Boolean
  }

  type ChartProperties {
    name: String!
    description: String
    externalUrl: String
  }

  type DataFlow implements Entity {
    urn: String!
    type: EntityType!
    lastIngested: Long
    orchestrator: String!
    flowId: String!
    cluster: String!
    properties: DataFlowProperties
    platform: DataPlatform!
    status: Status
    deprecation: Deprecation
    subTypes: SubTypes
    exists: Boolean
    "Runs that are not soft-deleted and have a run event, newest created first."
    runs(start: Int, count: Int): DataProcessInstanceResult
  }

  type DataFlowProperties {
    name: String!
    description: String
    project: String
    externalUrl: String
  }

  type DataJob implements Entity {
    urn: String!
    type: EntityType!
    subTypes: SubTypes
    lastIngested: Long
    dataFlow: DataFlow
    jobId: String!
    properties: DataJobProperties
    dataPlatformInstance: DataPlatformInstance
    platform: DataPlatform
    status: Status
    deprecation: Deprecation
    exists: Boolean
    "Runs that are not soft-deleted and have a run event, newest created first."
    runs(start: Int, count: Int): DataProcessInstanceResult
  }

  type DataJobProperties {
    name: String!
    description: String
    externalUrl: String
  }

  type DataProcessInstance implements Entity {
    urn: String!
    type: EntityType!
    exists: Boolean
    status: Status
    "From dataProcessInstanceProperties.created."
    created: AuditStamp @deprecated(reason: "Use properties.created")
    name: String @deprecated(reason: "Use properties.name")
    properties: DataProcessInstanceProperties
    dataPlatformInstance: DataPlatformInstance
    subTypes: SubTypes
    "The job or flow this is a run of (dataProcessInstanceRelationships.parentTemplate)."
    parentTemplate: Entity
  }

  type DataProcessInstanceProperties {
    name: String!
    externalUrl: String
    created: AuditStamp!
  }

  type DataProcessInstanceResult {
    count: Int
    start: Int
    total: Int
    runs: [DataProcessInstance]
  }
`;

const jobOrFlow = (entity: string) => async (_s: unknown, args: { urn: string }, ctx: GraphqlContext) => {
  if (parseUrn(args.urn).entityType !== entity) return null;
  if ((await ctx.entities.load(args.urn, [])) === undefined) return null;
  return entityRef(ctx, args.urn);
};

/** The dataPlatformInstance aspect's instance urn, as a DataPlatformInstance. */
const platformInstance = refFromAspect('dataPlatformInstance', (v) => v.instance);

/** DataHub's `runs` of a job or flow (ExecutionRunsResolver): start 0 and count 20 by default. */
const runs = async (e: EntitySource, args: { start?: number | null; count?: number | null }, ctx: GraphqlContext) => {
  const start = args.start ?? 0;
  const count = args.count ?? 20;
  if (start < 0 || count < 0 || count > MAX_RUNS) throw badRequest(`runs: start must not be negative and count must be from 0 to ${MAX_RUNS}`);
  const page = await ctx.app.catalog.processRuns(e.urn, start, count);
  return { start, count: page.urns.length, total: page.total, runs: await Promise.all(page.urns.map((urn) => entityRef(ctx, urn))) };
};
const MAX_RUNS = 10_000;

const dpiProperties = fromAspect('dataProcessInstanceProperties', (v) => ({
  name: str(v.name) ?? '',
  externalUrl: str(v.externalUrl),
  created: auditStamp(v.created) ?? { time: 0, actor: null },
}));

/** Dashboards and charts share their key's tool and an *Info aspect whose title is the name. */
const dashboardOrChart = (idField: string, infoAspect: string) => ({
  ...COMMON,
  lastIngested: () => null,
  tool: keyField('dashboardTool'),
  properties: fromAspect(infoAspect, (v, e) => named(v.title, keyPart(e, idField), v)),
  platform: platformFromKey('dashboardTool'),
  status: statusField,
  deprecation: deprecationField,
  subTypes: subTypesField,
  exists: existsField,
});

export const jobsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: { dataJob: jobOrFlow('dataJob'), dataFlow: jobOrFlow('dataFlow') },
    Dashboard: { ...dashboardOrChart('dashboardId', 'dashboardInfo'), dashboardId: keyField('dashboardId') },
    Chart: { ...dashboardOrChart('chartId', 'chartInfo'), chartId: keyField('chartId') },
    DataFlow: {
      ...COMMON,
      lastIngested: () => null,
      orchestrator: keyField('orchestrator'),
      flowId: keyField('flowId'),
      cluster: keyField('cluster'),
      properties: fromAspect('dataFlowInfo', (v, e) => ({ ...named(v.name, keyPart(e, 'flowId'), v), project: str(v.project) })),
      platform: platformFromKey('orchestrator'),
      status: statusField,
      deprecation: deprecationField,
      subTypes: subTypesField,
      exists: existsField,
      runs,
    },
    DataJob: {
      ...COMMON,
      lastIngested: () => null,
      jobId: keyField('jobId'),
      dataFlow: refField((e) => keyPart(e, 'flow')),
      properties: fromAspect('dataJobInfo', (v, e) => named(v.name, keyPart(e, 'jobId'), v)),
      dataPlatformInstance: platformInstance,
      platform: refField((e) => {
        const flow = keyPart(e, 'flow');
        return flow ? `urn:li:dataPlatform:${parseUrn(flow).parts[0]}` : null;
      }),
      subTypes: subTypesField,
      status: statusField,
      deprecation: deprecationField,
      exists: existsField,
      runs,
    },
    DataProcessInstance: {
      ...COMMON,
      exists: existsField,
      status: statusField,
      created: fromAspect('dataProcessInstanceProperties', (v) => auditStamp(v.created)),
      name: fromAspect('dataProcessInstanceProperties', (v) => str(v.name)),
      properties: dpiProperties,
      dataPlatformInstance: platformInstance,
      subTypes: subTypesField,
      parentTemplate: refFromAspect('dataProcessInstanceRelationships', (v) => v.parentTemplate),
    },
  },
};

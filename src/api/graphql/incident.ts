import { DATAHUB_REGISTRY } from '../../catalog/registry/index.ts';
import type { SearchCriterion } from '../../catalog/search/search-filter.ts';
import type { Json } from '../../storage/store.ts';
import { associations, objects } from './associations.ts';
import { auditStamp, COMMON, existsField, fromAspect, num, str } from './entity-fields.ts';
import { entityRef, type EntitySource } from './entity-refs.ts';
import { listPaging } from './entity-search-fields.ts';
import { ENTITY_TYPE_ROWS } from './entity-types.ts';
import type { GraphqlContext, GraphqlModule, Resolver } from './schema.ts';

/**
 * DataHub's Incident (from incidentInfo) and the `incidents` field of every
 * type an incident can be raised on: the registry's IncidentOn targets.
 */

/** The entity types incidentInfo's IncidentOn relationship names, from the registry. */
const INCIDENT_TARGETS = new Set(
  (DATAHUB_REGISTRY.aspects.incidentInfo?.relationships ?? [])
    .filter((r) => r.name === 'IncidentOn')
    .flatMap((r) => r.entityTypes.map((t) => t.toLowerCase())),
);
const TARGET_TYPENAMES = ENTITY_TYPE_ROWS.filter((r) => r.entity && r.typename && INCIDENT_TARGETS.has(r.entity.toLowerCase())).map(
  (r) => r.typename!,
);

const typeDefs = /* GraphQL */ `
  enum IncidentState {
    ACTIVE
    RESOLVED
  }

  enum IncidentStage {
    TRIAGE
    INVESTIGATION
    WORK_IN_PROGRESS
    FIXED
    NO_ACTION_REQUIRED
  }

  enum IncidentPriority {
    LOW
    MEDIUM
    HIGH
    CRITICAL
  }

  enum IncidentType {
    FRESHNESS
    VOLUME
    FIELD
    SQL
    DATA_SCHEMA
    OPERATIONAL
    CUSTOM
  }

  enum IncidentSourceType {
    MANUAL
    ASSERTION_FAILURE
  }

  type IncidentStatus {
    state: IncidentState!
    stage: IncidentStage
    message: String
    lastUpdated: AuditStamp!
  }

  type IncidentSource {
    type: IncidentSourceType!
    source: Entity
  }

  type Incident implements Entity {
    urn: String!
    type: EntityType!
    incidentType: IncidentType!
    customType: String
    title: String
    description: String
    incidentStatus: IncidentStatus!
    status: IncidentStatus! @deprecated(reason: "Use incidentStatus")
    priority: IncidentPriority
    assignees: [OwnerType!]
    "The first entity the incident is raised on."
    entity: Entity!
    source: IncidentSource
    startedAt: Long
    created: AuditStamp!
    exists: Boolean
  }

  type EntityIncidentsResult {
    start: Int!
    count: Int!
    total: Int!
    incidents: [Incident!]!
  }

  ${TARGET_TYPENAMES.map(
    (t) => `extend type ${t} {
    "Incidents raised on this entity, newest first, 20 a page by default."
    incidents(state: IncidentState, stage: IncidentStage, priority: IncidentPriority, assigneeUrns: [String!], start: Int, count: Int): EntityIncidentsResult
  }`,
  ).join('\n\n  ')}
`;

/** incidentInfo.priority is 0 (critical) to 3 (low), as DataHub's IncidentMapper reads it. */
const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

const status = (v: Json) => {
  const s = (v.status as Json | undefined) ?? {};
  return {
    state: str(s.state) ?? 'ACTIVE',
    stage: str(s.stage),
    message: str(s.message),
    lastUpdated: auditStamp(s.lastUpdated) ?? { time: 0, actor: null },
  };
};

interface IncidentsArgs {
  state?: string | null;
  stage?: string | null;
  priority?: string | null;
  assigneeUrns?: readonly string[] | null;
  start?: number | null;
  count?: number | null;
}

const incidentsField: Resolver = async (e: EntitySource, args: IncidentsArgs, ctx: GraphqlContext) => {
  const { start, count } = listPaging(args, 20, '');
  const criteria: SearchCriterion[] = [{ field: 'entities', values: [e.urn] }];
  if (args.state) criteria.push({ field: 'state', values: [args.state] });
  if (args.stage) criteria.push({ field: 'stage', values: [args.stage] });
  if (args.priority) criteria.push({ field: 'priority', values: [String(PRIORITIES.indexOf(args.priority))] });
  if (args.assigneeUrns && args.assigneeUrns.length > 0) criteria.push({ field: 'assignees', values: args.assigneeUrns });
  const page = await ctx.app.search.page(
    { entityTypes: ['incident'], query: undefined, filter: [criteria], includeSoftDeleted: false, sort: [{ field: 'created', order: 'DESCENDING' }] },
    start,
    count,
  );
  const incidents = (await Promise.all(page.hits.map((h) => entityRef(ctx, h.urn)))).filter((i) => i !== null);
  return { start, count, total: await page.total(), incidents };
};

const info = (map: (v: Json) => unknown) => fromAspect('incidentInfo', map);

export const incidentModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Incident: {
      ...COMMON,
      incidentType: info((v) => str(v.type) ?? 'CUSTOM'),
      customType: info((v) => str(v.customType)),
      title: info((v) => str(v.title)),
      description: info((v) => str(v.description)),
      incidentStatus: info(status),
      status: info(status),
      priority: info((v) => (typeof v.priority === 'number' ? (PRIORITIES[v.priority] ?? null) : null)),
      assignees: async (e: EntitySource, _a, ctx) => {
        const v = (await ctx.entities.load(e.urn, ['incidentInfo']))?.get('incidentInfo');
        if (!v) return null;
        return associations(
          ctx,
          objects(v.assignees).map((a) => a.actor),
          (actor) => actor,
        );
      },
      entity: async (e: EntitySource, _a, ctx) => {
        const v = (await ctx.entities.load(e.urn, ['incidentInfo']))?.get('incidentInfo');
        const first = Array.isArray(v?.entities) ? str(v.entities[0]) : null;
        return entityRef(ctx, first);
      },
      source: async (e: EntitySource, _a, ctx) => {
        const v = (await ctx.entities.load(e.urn, ['incidentInfo']))?.get('incidentInfo');
        const s = v?.source as Json | undefined;
        if (!s) return null;
        return { type: str(s.type) ?? 'MANUAL', source: await entityRef(ctx, str(s.sourceUrn)) };
      },
      startedAt: info((v) => num(v.startedAt)),
      created: info((v) => auditStamp(v.created) ?? { time: 0, actor: null }),
      exists: existsField,
    },
    ...Object.fromEntries(TARGET_TYPENAMES.map((t) => [t, { incidents: incidentsField }])),
  },
};

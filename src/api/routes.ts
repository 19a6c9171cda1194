import type { FastifyPluginAsync } from 'fastify';
import { consoleRoutes } from './almanac/console-routes.ts';
import type { AppContext } from './context.ts';
import { graphqlRoutes } from './graphql/graphql-routes.ts';
import { loginRoutes } from './almanac/login-routes.ts';
import { openapiRoutes } from './openapi/entity-routes.ts';
import { entityReadRoutes } from './openapi/entity-read-routes.ts';
import { openapiV2Routes } from './openapi/entity-v2-routes.ts';
import { identityRoutes } from './openapi/identity-routes.ts';
import { openLineageRoutes } from './openapi/openlineage-routes.ts';
import { relationshipRoutes } from './openapi/relationship-routes.ts';
import { timelineRoutes } from './openapi/timeline-routes.ts';
import { traceRoutes } from './openapi/trace-routes.ts';
import { auditRoutes } from './openapi/audit-routes.ts';
import { rawDocumentRoutes } from './openapi/raw-document-routes.ts';
import { systemInfoRoutes } from './openapi/system-info-routes.ts';
import { eventRoutes } from './openapi/event-routes.ts';
import { operatorRoutes } from './almanac/operator-routes.ts';
import { aspectsRoutes } from './restli/aspects-routes.ts';
import { configRoutes } from './restli/config-routes.ts';
import { entitiesRoutes } from './restli/entities-routes.ts';
import { entitiesV2Routes } from './restli/entities-v2-routes.ts';
import { operationsRoutes } from './restli/operations-routes.ts';
import { relationshipsRestliRoutes } from './restli/relationships-routes.ts';
import { runsRoutes } from './restli/runs-routes.ts';
import { retentionRoutes } from './almanac/retention-routes.ts';
import { tasksRoutes } from './almanac/tasks-routes.ts';

export type RoutePlugin = (ctx: AppContext) => FastifyPluginAsync;

/** Every route plugin, in mount order: these under both path forms, GMS's /x and the frontend proxy's /api/gms/x. */
export const GMS_ROUTES: readonly RoutePlugin[] = [
  configRoutes,
  aspectsRoutes,
  entitiesRoutes,
  entitiesV2Routes,
  openapiRoutes,
  openapiV2Routes,
  rawDocumentRoutes,
  systemInfoRoutes,
  entityReadRoutes,
  loginRoutes,
  identityRoutes,
  graphqlRoutes,
  operationsRoutes,
  tasksRoutes,
  retentionRoutes,
  runsRoutes,
  relationshipRoutes,
  relationshipsRestliRoutes,
  timelineRoutes,
  openLineageRoutes,
  traceRoutes,
  auditRoutes,
  eventRoutes,
];

/** Then these, at the root only: what operators poll, and the console's static files. */
export const ROOT_ROUTES: readonly RoutePlugin[] = [operatorRoutes, () => consoleRoutes()];

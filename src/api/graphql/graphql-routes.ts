import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../context.ts';
import { fromFrameworkError, GRAPHQL_CODE, sendGraphqlHttpError } from '../errors.ts';
import { noteFailure } from '../request-log.ts';
import { accessTokensModule } from './access-tokens.ts';
import { serviceAccountsModule } from './service-accounts.ts';
import { nameMutationsModule } from './name-mutations.ts';
import { aspectValuesModule } from './aspect-values.ts';
import { assertionModule } from './assertion.ts';
import { assertionRunEventsModule } from './assertion-run-events.ts';
import { associationsModule } from './associations.ts';
import { browseModule } from './browse.ts';
import { containerModule } from './container.ts';
import { corpGroupModule } from './corp-group.ts';
import { dataProductModule } from './data-product.ts';
import { domainModule } from './domain.ts';
import { glossaryModule } from './glossary.ts';
import { tagModule } from './tag.ts';
import { entityAspectFieldsModule } from './entity-aspect-fields.ts';
import { entityQueriesModule } from './entity-queries.ts';
import { appConfigModule } from './app-config.ts';
import { datasetAnnotationsModule } from './dataset-annotations.ts';
import { datasetEditableModule } from './dataset-editable.ts';
import { incidentModule } from './incident.ts';
import { inputFieldsModule } from './input-fields.ts';
import { minimalEntitiesModule } from './minimal-entities.ts';
import { mlTrainingModule } from './ml-training.ts';
import { usageStatsModule } from './usage-stats.ts';
import { viewModule } from './view.ts';
import { datasetsModule } from './datasets.ts';
import { dataProductMutationsModule } from './data-product-mutations.ts';
import { deprecationsModule } from './deprecations.ts';
import { editablePropertiesMutationsModule } from './editable-properties-mutations.ts';
import { descriptionMutationsModule } from './description-mutations.ts';
import { domainMutationsModule } from './domain-mutations.ts';
import { glossaryMutationsModule } from './glossary-mutations.ts';
import { groupMutationsModule } from './group-mutations.ts';
import { incidentMutationsModule } from './incident-mutations.ts';
import { logicalParentMutationsModule } from './logical-parent-mutations.ts';
import { labelMutationsModule } from './label-mutations.ts';
import { structuredPropertyMutationsModule } from './structured-property-mutations.ts';
import { viewMutationsModule } from './view-mutations.ts';
import { lineageMutationsModule } from './lineage-mutations.ts';
import { linkMutationsModule } from './link-mutations.ts';
import { ownerMutationsModule } from './owner-mutations.ts';
import { entitiesModule } from './entities.ts';
import { filtersModule } from './filters.ts';
import { jobsModule } from './jobs.ts';
import { EntityLoader } from './entity-loader.ts';
import { GraphqlExecutor, type GraphqlRequest } from './executor.ts';
import { registerGraphiql } from './graphiql.ts';
import { policiesModule } from './policies.ts';
import { rolesModule } from './roles.ts';
import { retentionModule } from './retention.ts';
import { webhooksModule } from './webhooks.ts';
import { deprecationImpactModule } from './deprecation-impact.ts';
import { searchModule } from './search.ts';
import { autocompleteModule } from './autocomplete.ts';
import { searchAcrossModule } from './search-across.ts';
import { usersModule } from './users.ts';
import { lineageSearchModule } from './lineage-search.ts';
import { entityLineageModule } from './entity-lineage.ts';
import { timelineModule } from './timeline.ts';
import { entityPrivilegesModule } from './entity-privileges.ts';
import { buildGraphqlSchema, type GraphqlModule } from './schema.ts';

/** Every feature's GraphQL slice written by hand; a new one is added here. */
const WRITTEN_MODULES: readonly GraphqlModule[] = [
  filtersModule,
  appConfigModule,
  associationsModule,
  browseModule,
  datasetsModule,
  datasetAnnotationsModule,
  entitiesModule,
  domainModule,
  glossaryModule,
  containerModule,
  dataProductModule,
  tagModule,
  corpGroupModule,
  jobsModule,
  datasetEditableModule,
  usageStatsModule,
  incidentModule,
  assertionModule,
  assertionRunEventsModule,
  viewModule,
  inputFieldsModule,
  mlTrainingModule,
  aspectValuesModule,
  minimalEntitiesModule,
  deprecationsModule,
  labelMutationsModule,
  ownerMutationsModule,
  descriptionMutationsModule,
  editablePropertiesMutationsModule,
  domainMutationsModule,
  linkMutationsModule,
  glossaryMutationsModule,
  dataProductMutationsModule,
  groupMutationsModule,
  lineageMutationsModule,
  structuredPropertyMutationsModule,
  incidentMutationsModule,
  logicalParentMutationsModule,
  viewMutationsModule,
  nameMutationsModule,
  searchModule,
  searchAcrossModule,
  autocompleteModule,
  lineageSearchModule,
  entityLineageModule,
  accessTokensModule,
  serviceAccountsModule,
  rolesModule,
  retentionModule,
  webhooksModule,
  deprecationImpactModule,
  usersModule,
  policiesModule,
  timelineModule,
  entityPrivilegesModule,
];

/** The written slices, then what is derived from them: common aspect fields and root queries per entity type. */
export const GRAPHQL_MODULES: readonly GraphqlModule[] = [
  ...WRITTEN_MODULES,
  entityAspectFieldsModule(WRITTEN_MODULES),
  entityQueriesModule(WRITTEN_MODULES),
];

/** The one executor of the schema (built by the composition root, shared by every mount of the routes). */
export const createGraphqlExecutor = (config: Config): GraphqlExecutor =>
  new GraphqlExecutor(buildGraphqlSchema(GRAPHQL_MODULES), { ...config.graphql, expensiveCost: config.rateLimit.graphqlCost });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `{query, variables, operationName}` body; anything else is refused with 400 before execution. */
function parseBody(body: unknown): GraphqlRequest {
  if (!isObject(body)) throw badRequest('Request body must be a JSON object with a "query" string');
  const { query, variables, operationName } = body;
  if (typeof query !== 'string' || query.trim() === '') throw badRequest('Request body must have a non-empty "query" string');
  if (variables !== undefined && variables !== null && !isObject(variables)) throw badRequest('"variables" must be a JSON object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    throw badRequest('"operationName" must be a string');
  return { query, variables: variables ?? null, operationName: operationName ?? null };
}

/** DataHub's GraphQL endpoint: `POST /api/graphql`, and the frontend's `POST /api/v2/graphql`. */
export const graphqlRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { graphql: executor, deprecations } = ctx;

    // Refusals before execution (bad JSON, no token) keep the GraphQL error shape.
    app.setErrorHandler((err, req, reply) => {
      const known = fromFrameworkError(err);
      noteFailure(req, err, known);
      return sendGraphqlHttpError(reply, known);
    });

    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      const request = parseBody(req.body);
      const context = { app: ctx, principal: req.principal, deprecations, entities: new EntityLoader(ctx.catalog), writes: req.writes };
      const response = await executor.run(
        request,
        context,
        (err, path) => req.log.error({ err, path }, 'graphql field failed'),
        async (expensive) => {
          if (expensive) await app.limitExpensive(req, reply);
        },
      );
      ctx.metrics.graphqlOperations.inc({ operation: ctx.metrics.operationLabel(request.operationName), outcome: response.errors ? 'error' : 'ok' });
      return reply.type('application/json; charset=utf-8').send(response);
    };
    // As DataHub: GET is 405, so queries never end up in access logs and caches via the url.
    const wrongMethod = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .header('Allow', 'POST')
        .send({ errors: [{ message: 'Send GraphQL requests with POST', extensions: GRAPHQL_CODE.BAD_REQUEST }], extensions: {} });

    for (const url of ['/api/graphql', '/api/v2/graphql']) {
      app.post(url, handle);
      app.get(url, { config: { public: true } }, wrongMethod);
    }
    registerGraphiql(app);
  };

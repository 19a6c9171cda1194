import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticator.ts';
import { AccessTokens } from './auth/access-tokens.ts';
import { AuthStateCache } from './auth/auth-state-cache.ts';
import { DeprecationImpact } from './catalog/deprecation-impact.ts';
import { WebhookDeliverer } from './tasks/webhooks/webhook-deliverer.ts';
import { WebhookSecrets } from './tasks/webhooks/webhook-secrets.ts';
import { WebhookSubscriptions } from './catalog/events/webhook-subscriptions.ts';
import { validateWebhookUrl } from './tasks/webhooks/webhook-target.ts';
import { Authorizer } from './auth/authorizer.ts';
import { installDefaultPolicies } from './auth/default-policies.ts';
import { PolicyService } from './auth/policy-service.ts';
import { LoginService } from './auth/login.ts';
import { RoleAssignments } from './auth/role-assignments.ts';
import { ADMIN_URN } from './auth/principal.ts';
import { loadTokenSecrets } from './auth/secrets.ts';
import { TokenService } from './auth/token-service.ts';
import { UserAdmin } from './auth/user-admin.ts';
import { ServiceAccounts } from './auth/service-accounts.ts';
import { Names } from './catalog/curation/names.ts';
import crypto from 'node:crypto';
import { Catalog } from './catalog/catalog.ts';
import { EntitySearch } from './catalog/search/entity-search.ts';
import { AspectEdits } from './catalog/curation/aspect-edits.ts';
import { Curation } from './catalog/curation/curation.ts';
import { DataProducts } from './catalog/curation/data-products.ts';
import { Domains } from './catalog/curation/domains.ts';
import { Glossary } from './catalog/curation/glossary.ts';
import { Groups } from './catalog/curation/groups.ts';
import { Incidents } from './catalog/curation/incidents.ts';
import { LineageEdits } from './catalog/curation/lineage-edits.ts';
import { StructuredPropertyEdits } from './catalog/curation/structured-properties.ts';
import { Views } from './catalog/curation/views.ts';
import { Deprecations } from './catalog/deprecation.ts';
import { IngestionRuns } from './catalog/ingestion-runs.ts';
import type { Config } from './config.ts';
import { buildServer } from './api/server.ts';
import { Metrics } from './api/metrics.ts';
import { TaskRunner } from './tasks/task-runner.ts';
import { SearchIndexBuilder } from './tasks/search-index/search-index-builder.ts';
import { AuditTrail } from './auth/audit-trail.ts';
import { housekeepingJob } from './tasks/housekeeping.ts';
import { Scheduler } from './tasks/scheduler.ts';
import { TimeseriesOperations } from './tasks/truncation/timeseries-operations.ts';
import { seedRetentionPolicies } from './tasks/retention/retention-file.ts';
import { retentionJob } from './tasks/retention/retention-job.ts';
import { TaskRetentionRunner } from './tasks/retention/task-retention-runner.ts';
import { RetentionService } from './catalog/retention/retention-service.ts';
import { RetentionPolicies } from './catalog/retention/retention-policies.ts';
import { createGraphqlExecutor } from './api/graphql/graphql-routes.ts';
import { RelationshipService } from './catalog/relationships/relationship-service.ts';
import { TimelineService } from './catalog/timeline/timeline-service.ts';
import { EventPoll } from './catalog/events/event-poll.ts';
import { openStore } from './storage/open-store.ts';
import { routeReads } from './storage/compose-store.ts';
import { routeToReplicas } from './storage/read-routing.ts';
import { runInReadScope } from './storage/read-scope.ts';
import type { Parts, SearchIndexBuild, Store } from './storage/store.ts';

/** How soon a retention policy changed by another process applies to this one's writes. */
export const RETENTION_REFRESH_MILLIS = 5_000;

/** The services every entry point shares, built once here: the CLI's bootstrap commands use them, the server adds its own. */
export interface Services {
  /** The opened database: closed last; its `backend` is what `/config` and the start-up line report. */
  readonly store: Store;
  /** The parts services are built from: writes to the primary, each part's reads from the handle `openServices` chose. */
  readonly ports: Parts;
  readonly catalog: Catalog;
  /** Entity search through the search part; the catalog, users, policies and the search routes share it. */
  readonly search: EntitySearch;
  readonly deprecations: Deprecations;
  /** The curation mutations' use cases: tags, terms, owners, descriptions, domains. */
  readonly curation: Curation;
  /** Creating, moving and deleting domains. */
  readonly domains: Domains;
  /** Creating glossary terms and nodes, and moving them. */
  readonly glossary: Glossary;
  /** Data products and the assets they list. */
  readonly dataProducts: DataProducts;
  /** updateName: renaming glossary entries, domains, groups and data products. */
  readonly names: Names;
  /** Native groups and their members. */
  readonly groups: Groups;
  /** updateLineage's edits of lineage aspects. */
  readonly lineageEdits: LineageEdits;
  /** Raising incidents and changing their status. */
  readonly incidents: Incidents;
  /** Structured property definitions and values. */
  readonly structuredProperties: StructuredPropertyEdits;
  /** Saved search filters, personal and global. */
  readonly views: Views;
  readonly impact: DeprecationImpact;
  readonly relationships: RelationshipService;
  readonly timeline: TimelineService;
  readonly runs: IngestionRuns;
  readonly tokens: TokenService;
  readonly authorizer: Authorizer;
  readonly roles: RoleAssignments;
  readonly accessTokens: AccessTokens;
  readonly login: LoginService;
  readonly users: UserAdmin;
  /** Non-human users that hold access tokens (DataHub's service accounts). */
  readonly serviceAccounts: ServiceAccounts;
  readonly policies: PolicyService;
  /** DataHub's audit event search. */
  readonly auditTrail: AuditTrail;
  /** DataHub's events API over the change log. */
  readonly eventPoll: EventPoll;
  /** The retention policies as this process applies them on write (reloaded after changes). */
  readonly retentionPolicies: RetentionPolicies;
  readonly webhooks: WebhookSubscriptions;
  /** Seals webhook secrets at rest, under a key derived from the token signing key. */
  readonly webhookSecrets: WebhookSecrets;
}

/** Gives urn:li:corpuser:datahub DataHub's root-user info, and the Admin role exactly once, on the database's first start. */
async function bootstrapAdmin({ database, identity }: Pick<Parts, 'database' | 'identity'>, catalog: Catalog): Promise<void> {
  await catalog.ensureRootUser(ADMIN_URN);
  const marker = crypto.randomUUID();
  if ((await database.getOrInitSetting('bootstrap.admin_role_granted', () => marker)) === marker) {
    await identity.setRole([ADMIN_URN], 'urn:li:dataHubRole:Admin', ADMIN_URN, Date.now());
  }
}

/**
 * The parts read replicas may answer (ALMANAC_DATABASE_READ_URLS), each read only when the replica is fresh for its
 * request. Identity and user access (the auth path and its mark), tasks, schedules and truncation (claims, leases,
 * node locks), change events (the event log's long polls wait on the primary's notifications) and the database part
 * stay on the primary, as does every write and whatever an adapter reads inside a
 * write's transaction.
 */
const REPLICATED: ReadonlySet<keyof Parts> = new Set<keyof Parts>(['aspects', 'relationships', 'timeseries', 'search', 'runs', 'retention', 'audit']);

/**
 * Which database handle answers each part's reads; writes always go to `store`. Without replicas every part reads
 * from the primary; with them, the parts in REPLICATED read through the store's router.
 */
function chooseReads(store: Store): Parts {
  if (store.readRouter) return routeToReplicas(store, store.readRouter, REPLICATED);
  return routeReads(store, {
    database: store,
    aspects: store,
    relationships: store,
    timeseries: store,
    truncation: store,
    tasks: store,
    identity: store,
    runs: store,
    retention: store,
    schedules: store,
    userAccess: store,
    changeEvents: store,
    search: store,
    audit: store,
  });
}

/** Opens and migrates the store, and makes sure the built-in administrator exists. */
export async function openServices(
  config: Config,
  options: { background?: boolean; checkListener?: boolean; onIncompleteSearchIndex?: (build: SearchIndexBuild) => void } = {},
): Promise<Services> {
  const retentionPolicies = new RetentionPolicies();
  const store = await openStore(config.database, { background: options.background, retention: retentionPolicies });
  try {
    // A server that would not hear other processes' changes (a listener behind a transaction pooler) does not start,
    // and finds out before anything else uses the pool.
    if (options.checkListener) await store.database.checkListener();
    const ports = chooseReads(store);
    await retentionPolicies.load(ports.retention);
    const search = new EntitySearch(ports, options.onIncompleteSearchIndex);
    const catalog = new Catalog(ports, search, store.backend);
    await bootstrapAdmin(ports, catalog);
    await installDefaultPolicies(ports, catalog, Date.now());
    // One cache of what authentication and authorization read, so a request reads the auth change mark once.
    const authState = new AuthStateCache(ports);
    const tokens = new TokenService(ports, await loadTokenSecrets(config, ports), config.sessions.ttlMillis, authState);
    // Authorization reads the primary: the policies it keeps across requests are checked against a counter read there.
    const authorizer = new Authorizer(store, authState);
    const webhookSecrets = new WebhookSecrets(tokens.derive('webhook secrets'));
    const relationships = new RelationshipService(ports);
    // One writer of the curation mutations' read-modify-writes, shared by their services.
    const edits = new AspectEdits(ports);
    return {
      store,
      ports,
      catalog,
      search,
      deprecations: new Deprecations(ports),
      curation: new Curation(ports, edits),
      domains: new Domains(ports, catalog, search, edits),
      glossary: new Glossary(ports, catalog, search, edits),
      dataProducts: new DataProducts(ports, catalog, edits),
      groups: new Groups(ports, catalog, edits),
      names: new Names(ports, search, edits),
      lineageEdits: new LineageEdits(ports, edits),
      incidents: new Incidents(ports, catalog, edits),
      structuredProperties: new StructuredPropertyEdits(ports, catalog, edits),
      views: new Views(ports, catalog, search, edits),
      relationships,
      impact: new DeprecationImpact(ports, relationships),
      timeline: new TimelineService(ports),
      runs: new IngestionRuns(ports, catalog),
      tokens,
      authorizer,
      roles: new RoleAssignments(ports),
      accessTokens: new AccessTokens(ports, tokens, authorizer, config.tokens),
      login: new LoginService(ports, tokens),
      users: new UserAdmin(ports, catalog, search, tokens, authorizer),
      serviceAccounts: new ServiceAccounts(ports, catalog, search, edits, authorizer),
      policies: new PolicyService(catalog, search, authorizer, ports),
      auditTrail: new AuditTrail(ports, authorizer),
      eventPoll: new EventPoll(ports),
      retentionPolicies,
      webhooks: new WebhookSubscriptions(ports, webhookSecrets, validateWebhookUrl),
      webhookSecrets,
    };
  } catch (e) {
    await store.database.close();
    throw e;
  }
}

export interface App {
  readonly server: FastifyInstance;
  readonly services: Services;
  /** Stops accepting requests, drains in-flight ones, then closes the database. */
  close(): Promise<void>;
}

/** The composition root shared by `npm start`, `almanac serve` and the API tests. */
export async function createApp(config: Config, logger: Logger): Promise<App> {
  const searchLog = logger.child({ component: 'search' });
  let warnedAt = 0;
  const services = await openServices(config, {
    background: true,
    checkListener: true,
    // A search answered while the index is still being built over older aspects may miss some: said, at most every 10 s.
    onIncompleteSearchIndex: (build) => {
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      searchLog.warn(
        { done: build.done, total: build.total },
        'search answered from an index still being built: entities not yet indexed are missing',
      );
    },
  });
  const authenticator = new Authenticator(
    { enabled: config.authEnabled, systemClientId: config.systemClientId, systemClientSecret: config.systemClientSecret },
    services.tokens,
    services.ports,
  );
  if (!config.authEnabled) logger.warn('METADATA_SERVICE_AUTH_ENABLED=false: every request acts as urn:li:corpuser:datahub');
  // Marks tasks left running by a crashed process failed before serving requests.
  const runner = new TaskRunner(services.ports, logger.child({ component: 'tasks' }));
  await runner.start();
  const operations = new TimeseriesOperations(services.ports, runner, logger.child({ component: 'tasks' }));
  const retentionLog = logger.child({ component: 'retention' });
  if (config.retention.file) {
    try {
      await seedRetentionPolicies(services.ports, config.retention.file, retentionLog, Date.now());
      await services.retentionPolicies.reload();
    } catch (e) {
      await runner.stop();
      await services.store.database.close();
      throw e;
    }
  }
  // Another process's policy change applies to this one's writes within this bound (docs/architecture.md).
  services.retentionPolicies.startRefreshing(RETENTION_REFRESH_MILLIS, (err) => retentionLog.warn({ err }, 'could not reload retention policies'));
  const retentionRunner = new TaskRetentionRunner(services.ports, runner, services.retentionPolicies, operations, retentionLog);
  const retention = new RetentionService(services.ports, services.retentionPolicies, retentionRunner, retentionLog, {
    maxDeletePercent: config.retention.maxDeletePercent,
  });
  let accepting = true;
  const { store: _store, ports, ...shared } = services;
  const router = services.store.readRouter;
  const metrics = new Metrics({
    databaseStats: () => ports.database.databaseStats(),
    truncations: (limit) => operations.truncations(limit),
    readRouting: router && (() => router.stats()),
  });
  // Periodic jobs, each occurrence run by one process of those sharing the database.
  const scheduler = new Scheduler(ports, runner.nodeId, logger.child({ component: 'scheduler' }), {
    onRun: (job, outcome) => metrics.scheduledRuns.inc({ job, outcome }),
  });
  scheduler.register(
    housekeepingJob(ports, config.housekeepingIntervalMillis, config.taskHistoryMillis, config.auditRetentionMillis, config.eventRetentionMillis),
  );
  if (config.retention.scheduleOffsetMillis !== null) scheduler.register(retentionJob(retention, config.retention.scheduleOffsetMillis));
  scheduler.start();
  // Every process may deliver: deliveries are claimed, so each goes out from one of them.
  const deliverer = config.webhookDelivery
    ? new WebhookDeliverer(ports, services.webhookSecrets, logger.child({ component: 'webhooks' }), { claimant: runner.nodeId })
    : undefined;
  deliverer?.start();
  // A database that held aspects before the search index gets it built in batches, resumed where a crash left it.
  const searchIndexBuilder = new SearchIndexBuilder(ports, searchLog);
  searchIndexBuilder.start();
  const server = await buildServer(
    {
      ...shared,
      config,
      authenticator,
      operations,
      retention,
      metrics,
      graphql: createGraphqlExecutor(config),
      accepting: () => accepting,
      readScope: router && ((fn: () => void) => runInReadScope(router.newScope(), fn)),
    },
    { logger },
  );
  return {
    server,
    services,
    close: async () => {
      accepting = false;
      // Running tasks stop at their next step and record how far they got; waiting requests then answer.
      await scheduler.stop();
      await deliverer?.stop();
      await searchIndexBuilder.stop();
      services.retentionPolicies.stop();
      await runner.stop();
      await server.close();
      await services.store.database.close();
    },
  };
}

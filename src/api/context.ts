import type { FastifyBaseLogger } from 'fastify';
import type { AccessTokens } from '../auth/access-tokens.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { LoginService } from '../auth/login.ts';
import type { Authorizer } from '../auth/authorizer.ts';
import type { PolicyService } from '../auth/policy-service.ts';
import type { Principal } from '../auth/principal.ts';
import type { TokenService } from '../auth/token-service.ts';
import type { UserAdmin } from '../auth/user-admin.ts';
import type { RoleAssignments } from '../auth/role-assignments.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { EntitySearch } from '../catalog/search/entity-search.ts';
import type { Deprecations } from '../catalog/deprecation.ts';
import type { DeprecationImpact } from '../catalog/deprecation-impact.ts';
import type { IngestionRuns } from '../catalog/ingestion-runs.ts';
import type { RelationshipService } from '../catalog/relationships/relationship-service.ts';
import type { TimelineService } from '../catalog/timeline/timeline-service.ts';
import type { Config } from '../config.ts';
import type { TimeseriesOperations } from '../tasks/truncation/timeseries-operations.ts';
import type { RetentionService } from '../tasks/retention/retention-service.ts';
import type { WebhookSubscriptions } from '../tasks/webhooks/webhook-subscriptions.ts';
import type { AuditTrail } from '../auth/audit-trail.ts';
import type { GraphqlExecutor } from './graphql/executor.ts';
import type { Metrics } from './metrics.ts';

/** What the route plugins need: the services built once by the composition root (src/app.ts), never a store. */
export interface AppContext {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly search: EntitySearch;
  readonly deprecations: Deprecations;
  readonly impact: DeprecationImpact;
  readonly relationships: RelationshipService;
  readonly timeline: TimelineService;
  readonly runs: IngestionRuns;
  readonly operations: TimeseriesOperations;
  readonly retention: RetentionService;
  readonly webhooks: WebhookSubscriptions;
  readonly tokens: TokenService;
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly roles: RoleAssignments;
  readonly accessTokens: AccessTokens;
  readonly login: LoginService;
  readonly users: UserAdmin;
  readonly policies: PolicyService;
  readonly auditTrail: AuditTrail;
  readonly metrics: Metrics;
  /** One GraphQL schema and document cache, shared by every path the endpoint is mounted at. */
  readonly graphql: GraphqlExecutor;
  /** False while the process shuts down: /ready answers 503 then. */
  readonly accepting: () => boolean;
  readonly logger: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every route that is not public. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Routes open without a token: /health and /config. */
    public?: boolean;
  }
}

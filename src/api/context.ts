import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../app.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { TimeseriesOperations } from '../tasks/truncation/timeseries-operations.ts';
import type { RetentionService } from '../catalog/retention/retention-service.ts';
import type { GraphqlExecutor } from './graphql/executor.ts';
import type { Metrics } from './metrics.ts';

/**
 * What the route plugins need: the services the composition root (src/app.ts) built once, never the store or its
 * parts (nor the retention policies the store applies, nor the key that seals webhook secrets), and what the server
 * adds for its own routes.
 */
export type AppContext = Omit<Services, 'store' | 'ports' | 'retentionPolicies' | 'webhookSecrets'> & {
  readonly config: Config;
  readonly operations: TimeseriesOperations;
  readonly retention: RetentionService;
  readonly authenticator: Authenticator;
  readonly metrics: Metrics;
  /** One GraphQL schema and document cache, shared by every path the endpoint is mounted at. */
  readonly graphql: GraphqlExecutor;
  /**
   * Runs a request in a scope of its own, so read replicas serve its reads only when fresh for it (app.ts); absent
   * without replicas.
   */
  readonly readScope?: (fn: () => void) => void;
  /** False while the process shuts down: /ready answers 503 then. */
  readonly accepting: () => boolean;
  readonly logger: FastifyBaseLogger;
};

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

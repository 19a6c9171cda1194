import type { FastifyBaseLogger } from 'fastify';
import type { AccessTokens } from '../auth/access-tokens.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { LoginService } from '../auth/login.ts';
import type { Authorizer } from '../auth/authorizer.ts';
import type { PolicyService } from '../auth/policy-service.ts';
import type { Principal } from '../auth/principal.ts';
import type { TokenService } from '../auth/token-service.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';

/** What the route plugins need; built once by the composition root. */
export interface AppContext {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly tokens: TokenService;
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly accessTokens: AccessTokens;
  readonly login: LoginService;
  readonly policies: PolicyService;
  readonly metrics: Metrics;
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

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the catalog keeps its state. */
export type DatabaseConfig = SqliteConfig | PostgresConfig;

export interface SqliteConfig {
  readonly kind: 'sqlite';
  readonly path: string;
  /** The connection's page cache in MiB (ALMANAC_SQLITE_CACHE_MB; default DEFAULT_SQLITE_CACHE_MIB). */
  readonly cacheMib?: number;
}

/**
 * ALMANAC_SQLITE_CACHE_MB's default. SQLite takes pages as it reads them, up to this: a small catalog uses little.
 * A large one's searches read their matches' rows from it: when the facets were rows of their own, a word in 1% of a
 * million entities, with its total and 11 facets, took 109.5 ms over HTTP with 64 MiB and 87.7 ms with 256 MiB
 * (docs/benchmarks-history.md, "A word in 1% of a million entities").
 */
export const DEFAULT_SQLITE_CACHE_MIB = 256;

/** A PostgreSQL database: the pool's URL (the primary, or a pooler in front of it), and what reads and listens where. */
export interface PostgresConfig {
  readonly kind: 'postgres';
  readonly url: string;
  /** The primary itself, never a pooler: the LISTEN connection and the task node lock (ALMANAC_DATABASE_LISTEN_URL; default `url`). */
  readonly listenUrl?: string;
  /** Streaming replicas that may answer reads (ALMANAC_DATABASE_READ_URLS). */
  readonly readUrls?: readonly string[];
  /** A replica further behind than this is skipped without being asked (ALMANAC_REPLICA_MAX_LAG_MS). */
  readonly replicaMaxLagMillis?: number;
}

/** ALMANAC_REPLICA_MAX_LAG_MS's default. */
export const DEFAULT_REPLICA_MAX_LAG_MILLIS = 1_000;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly authEnabled: boolean;
  readonly systemClientId: string;
  /** System-client auth is on only when this is set: there is no built-in secret. */
  readonly systemClientSecret: string | undefined;
  /** When unset, a key is generated once and kept in the database. */
  readonly tokenSigningKey: string | undefined;
  readonly tokenSalt: string | undefined;
  readonly logLevel: string;
  /** A request taking this long or longer is logged at warn instead of info (0: every request). */
  readonly slowRequestMillis: number;
  /** How often the periodic upkeep (expired tokens, old sign-in failures) runs, once across all processes. */
  readonly housekeepingIntervalMillis: number;
  readonly bodyLimitBytes: number;
  /** Bounds on every connection, so slow or idle clients cannot hold the server's sockets. */
  readonly http: HttpLimits;
  /** What one GraphQL operation may cost, checked before it is compiled or run. */
  readonly graphql: { readonly maxDepth: number; readonly maxAliases: number; readonly maxCost: number };
  /** Whether GET /metrics needs a token (it is open like /health by default). */
  readonly metricsAuth: boolean;
  /** Whether GET /metrics is served and each request's duration recorded (on by default). */
  readonly metricsEnabled: boolean;
  /** Sign-in sessions: how long one lasts, and whether its cookies are marked Secure. */
  readonly sessions: { readonly ttlMillis: number; readonly cookieSecure: boolean };
  /** The address users reach Almanac at (ALMANAC_PUBLIC_URL), when set: its origin is the console's own. */
  readonly publicUrl: URL | undefined;
  /** Bounds on personal access tokens. */
  readonly tokens: { readonly maxPerUser: number; readonly maxNameLength: number; readonly maxDescriptionLength: number };
  /** Per-principal budget of expensive operations (search, lineage, truncation, costly GraphQL). */
  readonly rateLimit: RateLimits;
  /** Aspect versions one request may write, summed over its proposals, entities and aliased mutations. */
  readonly maxWritesPerRequest: number;
  readonly retention: RetentionConfig;
  /** Task records that ended longer ago than this are deleted by housekeeping (change events too, once delivered). */
  readonly taskHistoryMillis: number;
  /** Audit events older than this are deleted by housekeeping. */
  readonly auditRetentionMillis: number;
  /** Change log entries (the events API's topics) older than this are deleted by housekeeping. */
  readonly eventRetentionMillis: number;
  /** Whether this process delivers webhook events (off: it records them, and other processes deliver them). */
  readonly webhookDelivery: boolean;
  /** What a password set by sign-up or `almanac user create` must satisfy. */
  readonly passwords: { readonly minLength: number };
}

export interface RetentionConfig {
  /** A YAML or JSON list of policies (DataHub's retention.yaml form) seeded at start-up. */
  readonly file: string | undefined;
  /** The daily run's time after midnight UTC; null: no scheduled run. */
  readonly scheduleOffsetMillis: number | null;
  /** An index run deleting more than this share of its rows is skipped until confirmed. */
  readonly maxDeletePercent: number;
}

/** `HH:MM` (UTC) as millis after midnight; `off` as null; a message otherwise. */
export function parseDailyTime(raw: string): number | null | string {
  if (raw.trim().toLowerCase() === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw.trim());
  if (!m) return `must be a time of day HH:MM (UTC, 24-hour) or off, got "${raw}"`;
  return (Number(m[1]) * 60 + Number(m[2])) * 60_000;
}

export interface RateLimits {
  /** Expensive operations one principal may start per window; 0 turns the limit off. */
  readonly max: number;
  readonly windowMillis: number;
  /** A GraphQL operation counts as expensive above this estimated cost (or when it searches or walks lineage). */
  readonly graphqlCost: number;
}

export interface HttpLimits {
  /** Time to receive a whole request, body included; answered 408 after it. */
  readonly requestTimeoutMillis: number;
  /** Time to receive a request's headers. */
  readonly headersTimeoutMillis: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMillis: number;
  /** Open connections at most; more are refused until some close. */
  readonly maxConnections: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const DEFAULT_DATABASE_URL = 'sqlite:./data/almanac.db';

/** The installation: the directory holding package.json, whatever the current directory is. */
export const INSTALL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The database a URL names, for messages: a PostgreSQL password is never shown. */
export function describeDatabase(db: DatabaseConfig): string {
  if (db.kind === 'sqlite') return `sqlite:${db.path}`;
  const url = new URL(db.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/** Parses `sqlite:<path>`, `sqlite::memory:` or `postgres://...` / `postgresql://...`. */
export function parseDatabaseUrl(url: string, name = 'ALMANAC_DATABASE_URL'): DatabaseConfig | string {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) return `${name}: sqlite: needs a file path, e.g. sqlite:./data/almanac.db`;
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      return `${name}: not a valid postgres URL`;
    }
    return { kind: 'postgres', url };
  }
  return `${name}: must start with sqlite: or postgres://, got "${url.split(':')[0]}:..."`;
}

/** A PostgreSQL URL of a variable other than the database's own: its message, or the URL. */
function postgresUrl(name: string, raw: string): { url: string } | { problem: string } {
  const parsed = parseDatabaseUrl(raw, name);
  if (typeof parsed === 'string') return { problem: parsed };
  if (parsed.kind !== 'postgres') return { problem: `${name}: must be a postgres:// URL` };
  return { url: parsed.url };
}

/** A SQLite database's cache when ALMANAC_SQLITE_CACHE_MB is set (`raw`), and a problem if it is set for PostgreSQL. */
function withSqliteCache(db: DatabaseConfig, raw: string | undefined, cacheMib: number, problems: string[]): DatabaseConfig {
  if (raw === undefined || raw === '') return db;
  if (db.kind !== 'sqlite') {
    problems.push('ALMANAC_SQLITE_CACHE_MB: needs a SQLite database (PostgreSQL caches in its own shared_buffers)');
    return db;
  }
  return { ...db, cacheMib };
}

/** The replicas, the listener's address and the lag bound, which only a PostgreSQL database takes. */
function postgresTopology(env: NodeJS.ProcessEnv, db: DatabaseConfig | string, maxLagMillis: number, problems: string[]): DatabaseConfig | string {
  const reads = (env.ALMANAC_DATABASE_READ_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const listen = env.ALMANAC_DATABASE_LISTEN_URL?.trim() || undefined;
  if (typeof db === 'string') return db;
  if (db.kind !== 'postgres') {
    if (reads.length > 0) problems.push('ALMANAC_DATABASE_READ_URLS: read replicas need a PostgreSQL database (ALMANAC_DATABASE_URL=postgres://...)');
    if (listen) problems.push('ALMANAC_DATABASE_LISTEN_URL: needs a PostgreSQL database (ALMANAC_DATABASE_URL=postgres://...)');
    return db;
  }
  const readUrls: string[] = [];
  for (const raw of reads) {
    const r = postgresUrl('ALMANAC_DATABASE_READ_URLS', raw);
    if ('problem' in r) problems.push(r.problem);
    else readUrls.push(r.url);
  }
  let listenUrl = db.url;
  if (listen) {
    const r = postgresUrl('ALMANAC_DATABASE_LISTEN_URL', listen);
    if ('problem' in r) problems.push(r.problem);
    else listenUrl = r.url;
  }
  return { kind: 'postgres', url: db.url, listenUrl, readUrls, replicaMaxLagMillis: maxLagMillis };
}

/**
 * The only reader of process.env. Every problem is collected so that an operator
 * fixes them all in one go; the caller exits non-zero on ConfigError.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const v = raw.trim().toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    problems.push(`${name}: must be true or false, got "${raw}"`);
    return fallback;
  };
  const optionalSecret = (name: string, minLength: number): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    if (raw.length < minLength) problems.push(`${name}: must be at least ${minLength} characters`);
    return raw;
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  // The default file lives under ALMANAC_HOME (the installation unless set), never under the current directory:
  // a command run from a subdirectory must open the server's database, not create a second one.
  const home = env.ALMANAC_HOME ? path.resolve(env.ALMANAC_HOME) : INSTALL_DIR;
  const db = postgresTopology(
    env,
    env.ALMANAC_DATABASE_URL
      ? parseDatabaseUrl(env.ALMANAC_DATABASE_URL)
      : ({ kind: 'sqlite', path: path.join(home, 'data', 'almanac.db') } satisfies DatabaseConfig),
    int('ALMANAC_REPLICA_MAX_LAG_MS', DEFAULT_REPLICA_MAX_LAG_MILLIS, 1, 3_600_000),
    problems,
  );
  if (typeof db === 'string') problems.push(db);
  const cacheMib = int('ALMANAC_SQLITE_CACHE_MB', DEFAULT_SQLITE_CACHE_MIB, 2, 1_048_576);
  const database = typeof db === 'string' ? db : withSqliteCache(db, env.ALMANAC_SQLITE_CACHE_MB, cacheMib, problems);
  const authEnabled = bool('METADATA_SERVICE_AUTH_ENABLED', true);
  const systemClientId = env.DATAHUB_SYSTEM_CLIENT_ID || '__datahub_system';
  if (systemClientId.includes(':')) problems.push('DATAHUB_SYSTEM_CLIENT_ID: must not contain ":"');
  const systemClientSecret = optionalSecret('DATAHUB_SYSTEM_CLIENT_SECRET', 8);
  const tokenSigningKey = optionalSecret('DATAHUB_TOKEN_SERVICE_SIGNING_KEY', 32);
  const tokenSalt = optionalSecret('DATAHUB_TOKEN_SERVICE_SALT', 8);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const slowRequestMillis = int('ALMANAC_SLOW_REQUEST_MS', 1_000, 0, 3_600_000);
  const housekeepingIntervalMillis = int('ALMANAC_HOUSEKEEPING_INTERVAL_SECONDS', 3600, 1, 7 * 86_400) * 1000;
  const bodyLimitBytes = int('ALMANAC_MAX_BODY_BYTES', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
  const http: HttpLimits = {
    requestTimeoutMillis: int('ALMANAC_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    headersTimeoutMillis: int('ALMANAC_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    keepAliveTimeoutMillis: int('ALMANAC_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnections: int('ALMANAC_MAX_CONNECTIONS', 4_096, 1, 1_000_000),
  };
  const graphql = {
    maxDepth: int('ALMANAC_GRAPHQL_MAX_DEPTH', 15, 1, 1000),
    maxAliases: int('ALMANAC_GRAPHQL_MAX_ALIASES', 30, 0, 100_000),
    // DataHub's own UI fragments cost about 10,000 in graphql-armor's model (objects 2, scalars 1, times 1.5 per level).
    maxCost: int('ALMANAC_GRAPHQL_MAX_COST', 100_000, 1, 100_000_000),
  };
  // DataHub's variable names and defaults (datahub-frontend's application.conf).
  const sessions = {
    ttlMillis: int('AUTH_SESSION_TTL_HOURS', 24, 1, 24 * 365) * 60 * 60 * 1000,
    cookieSecure: bool('AUTH_COOKIE_SECURE', false),
  };
  let publicUrl: URL | undefined;
  if (env.ALMANAC_PUBLIC_URL) {
    try {
      publicUrl = new URL(env.ALMANAC_PUBLIC_URL);
      if (publicUrl.protocol !== 'http:' && publicUrl.protocol !== 'https:') throw new Error('scheme');
    } catch {
      problems.push(`ALMANAC_PUBLIC_URL: must be an http:// or https:// address, got "${env.ALMANAC_PUBLIC_URL}"`);
      publicUrl = undefined;
    }
  }
  const tokens = {
    maxPerUser: int('ALMANAC_MAX_TOKENS_PER_USER', 100, 1, 1_000_000),
    maxNameLength: int('ALMANAC_TOKEN_NAME_MAX_LENGTH', 256, 1, 100_000),
    maxDescriptionLength: int('ALMANAC_TOKEN_DESCRIPTION_MAX_LENGTH', 2048, 0, 1_000_000),
  };
  const rateLimit: RateLimits = {
    // Generous: an interactive user or a scripted crawl stays far below it; a loop hammering search does not.
    max: int('ALMANAC_RATE_LIMIT_MAX', 1_000, 0, 1_000_000),
    windowMillis: int('ALMANAC_RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    graphqlCost: int('ALMANAC_RATE_LIMIT_GRAPHQL_COST', 5_000, 1, 100_000_000),
  };
  // The Python emitter sends 200 proposals per batch by default; a UI batch action at most 1,000 resources.
  const maxWritesPerRequest = int('ALMANAC_MAX_WRITES_PER_REQUEST', 10_000, 1, 10_000_000);
  const schedule = parseDailyTime(env.ALMANAC_RETENTION_SCHEDULE || '03:00');
  if (typeof schedule === 'string') problems.push(`ALMANAC_RETENTION_SCHEDULE: ${schedule}`);
  const retention: RetentionConfig = {
    file: env.ALMANAC_RETENTION_FILE ? path.resolve(env.ALMANAC_RETENTION_FILE) : undefined,
    scheduleOffsetMillis: typeof schedule === 'string' ? null : schedule,
    maxDeletePercent: int('ALMANAC_RETENTION_MAX_DELETE_PERCENT', 99, 1, 100),
  };
  // 1024 is the longest password sign-in accepts (auth/users.ts).
  const passwords = { minLength: int('ALMANAC_PASSWORD_MIN_LENGTH', 8, 1, 1024) };
  const taskHistoryMillis = int('ALMANAC_TASK_HISTORY_DAYS', 90, 1, 36_500) * 86_400_000;
  const auditRetentionMillis = int('ALMANAC_AUDIT_RETENTION_DAYS', 90, 1, 36_500) * 86_400_000;
  const eventRetentionMillis = int('ALMANAC_EVENT_RETENTION_DAYS', 7, 1, 36_500) * 86_400_000;
  if (http.headersTimeoutMillis > http.requestTimeoutMillis) {
    problems.push('ALMANAC_HEADERS_TIMEOUT_MS: must not exceed ALMANAC_REQUEST_TIMEOUT_MS');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    database: database as DatabaseConfig,
    authEnabled,
    systemClientId,
    systemClientSecret,
    tokenSigningKey,
    tokenSalt,
    logLevel,
    slowRequestMillis,
    housekeepingIntervalMillis,
    bodyLimitBytes,
    http: Object.freeze(http),
    graphql: Object.freeze(graphql),
    metricsAuth: bool('ALMANAC_METRICS_AUTH', false),
    metricsEnabled: bool('ALMANAC_METRICS', true),
    sessions: Object.freeze({ ...sessions, cookieSecure: sessions.cookieSecure || publicUrl?.protocol === 'https:' }),
    publicUrl,
    tokens: Object.freeze(tokens),
    rateLimit: Object.freeze(rateLimit),
    maxWritesPerRequest,
    retention: Object.freeze(retention),
    taskHistoryMillis,
    auditRetentionMillis,
    eventRetentionMillis,
    webhookDelivery: bool('ALMANAC_WEBHOOK_DELIVERY', true),
    passwords: Object.freeze(passwords),
  });
}

/** How the CLI finds a server: the DataHub CLI's variable names, so existing shells keep working. */
export interface ClientConfig {
  readonly server: string;
  readonly token: string | undefined;
}

export function loadClientConfig(env: NodeJS.ProcessEnv = process.env): ClientConfig {
  return { server: env.DATAHUB_GMS_URL || 'http://localhost:8080', token: env.DATAHUB_GMS_TOKEN || undefined };
}

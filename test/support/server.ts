import { createApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../src/logger.ts';
import type { TestDatabase } from './databases.ts';

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RequestOptions {
  readonly body?: unknown;
  /** A raw body sent as is (for malformed JSON tests). */
  readonly rawBody?: string;
  /** null sends no Authorization header; a string replaces the admin token. */
  readonly auth?: string | null;
  readonly headers?: Record<string, string>;
}

export interface TestServer {
  readonly url: string;
  readonly app: App;
  readonly config: Config;
  /** A personal access token of urn:li:corpuser:datahub. */
  readonly adminToken: string;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  close(): Promise<void>;
}

/** One HTTP request to `baseUrl + path`, with a JSON body if given, answered as status, headers, text and parsed JSON. */
export async function httpRequest(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth) headers.Authorization = options.auth;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts a real server on port 0 against the given database, configured as from the environment; its log goes to `logTo` if given. */
export async function startTestServer(db: TestDatabase, env: Record<string, string> = {}, logTo?: DestinationStream): Promise<TestServer> {
  const config = loadConfig({ ...db.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
  const app = await createApp(config, createLogger(config.logLevel, logTo));
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
  const url = `http://127.0.0.1:${address.port}`;
  const { token: adminToken } = await app.services.tokens.mint({
    actorUrn: 'urn:li:corpuser:datahub',
    ownerUrn: 'urn:li:corpuser:datahub',
    duration: 'ONE_DAY',
    name: 'test admin',
  });
  const request = (method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> =>
    httpRequest(url, method, path, { ...options, auth: options.auth === undefined ? `Bearer ${adminToken}` : options.auth });
  return { url, app, config, adminToken, request, close: () => app.close() };
}

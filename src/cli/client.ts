import { CatalogError } from '../catalog/errors.ts';
import { loadClientConfig } from '../config.ts';
import { CliError, EXIT, exitForStatus } from './exit-codes.ts';
import { httpRequest, type HttpAnswer } from './http-request.ts';

export { CliError } from './exit-codes.ts';

export interface ClientOptions {
  readonly server?: string;
  readonly token?: string;
}

const ok = (res: HttpAnswer) => res.status >= 200 && res.status < 300;

/**
 * The CLI's view of a running Almanac: the public REST and GraphQL APIs only,
 * so it works against any DataHub-compatible server it is pointed at.
 */
export class GmsClient {
  readonly server: string;
  private readonly token: string | undefined;

  constructor(options: ClientOptions) {
    const env = loadClientConfig();
    this.server = (options.server ?? env.server).replace(/\/+$/, '');
    this.token = options.token ?? env.token;
  }

  private async send(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: HttpAnswer;
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' };
      if (this.token) headers.Authorization = `Bearer ${this.token}`;
      res = await httpRequest(new URL(this.server + path), method, headers, body === undefined ? undefined : JSON.stringify(body));
    } catch (e) {
      throw new CliError(`cannot reach ${this.server}: ${(e as Error).message}`, EXIT.UNAVAILABLE);
    }
    const { text } = res;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new CliError(`${method} ${path}: ${res.status} ${res.statusText} (not JSON)`, ok(res) ? EXIT.UNAVAILABLE : exitForStatus(res.status));
    }
    if (!ok(res)) {
      const message = (json as { message?: string } | undefined)?.message ?? res.statusText;
      const hint = res.status === 401 ? ' (set --token or DATAHUB_GMS_TOKEN)' : '';
      throw new CliError(`${res.status}: ${message}${hint}`, exitForStatus(res.status));
    }
    return json;
  }

  async action<T>(resource: string, name: string, params: Record<string, unknown>): Promise<T> {
    return ((await this.send('POST', `/${resource}?action=${name}`, params)) as { value: T }).value;
  }

  async get<T>(path: string): Promise<T> {
    return (await this.send('GET', path)) as T;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return (await this.send('POST', path, body)) as T;
  }

  async delete<T>(path: string): Promise<T> {
    return (await this.send('DELETE', path)) as T;
  }

  async graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = (await this.send('POST', '/api/graphql', { query, variables })) as {
      data?: T;
      errors?: Array<{ message: string; extensions?: { code?: unknown } }>;
    };
    if (res.errors?.length) {
      // GraphQL answers 200 either way: DataHub's numeric extensions.code carries the status.
      const code = res.errors[0]!.extensions?.code;
      throw new CliError(res.errors.map((e) => e.message).join('; '), typeof code === 'number' ? exitForStatus(code) : EXIT.FAILURE);
    }
    return res.data as T;
  }
}

/** Messages of errors the CLI expects; anything else is reported as unexpected, still on one line. */
export function cliMessage(e: unknown): string {
  if (e instanceof CliError || e instanceof CatalogError) return e.message;
  return `unexpected error: ${(e as Error).message}`;
}

import assert from 'node:assert/strict';
import { mcp } from './fixtures.ts';
import type { HttpResult, TestServer } from './server.ts';

export interface GqlOptions {
  /** null sends no token; a string replaces the admin token. */
  readonly auth?: string | null;
  /** /api/graphql unless given (e.g. /api/v2/graphql). */
  readonly path?: string;
  readonly operationName?: string;
}

/** POSTs one GraphQL request, as DataHub's clients do. */
export const gql = (server: TestServer, query: string, variables?: Record<string, unknown>, options: GqlOptions = {}): Promise<HttpResult> =>
  server.request('POST', options.path ?? '/api/graphql', {
    body: { query, variables: variables ?? {}, ...(options.operationName ? { operationName: options.operationName } : {}) },
    ...(options.auth !== undefined ? { auth: options.auth } : {}),
  });

/** Asserts HTTP 200 with no GraphQL errors and returns `data`. */
export async function gqlData(server: TestServer, query: string, variables?: Record<string, unknown>, options?: GqlOptions) {
  const res = await gql(server, query, variables, options);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.errors, undefined, res.text);
  assert.deepEqual(res.json.extensions, {});
  return res.json.data;
}

/** Asserts HTTP 200 with exactly one GraphQL error of this code, type and message; returns the body. */
export async function gqlError(
  server: TestServer,
  query: string,
  variables: Record<string, unknown> | undefined,
  expected: { code: number; type: string; message: string | RegExp },
  options?: GqlOptions,
) {
  const res = await gql(server, query, variables, options);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.errors?.length, 1, res.text);
  const [error] = res.json.errors;
  assert.deepEqual(error.extensions, { code: expected.code, type: expected.type });
  if (typeof expected.message === 'string') assert.equal(error.message, expected.message);
  else assert.match(error.message, expected.message);
  return res.json;
}

export { mcp } from './fixtures.ts';

/** Ingests aspects over the Rest.li API, as DataHub's emitters do. */
export async function ingest(server: TestServer, ...proposals: ReturnType<typeof mcp>[]): Promise<void> {
  const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
  assert.equal(res.status, 200, res.text);
}

/** A dataset that exists: its status aspect, and a schema when fields are given. */
export async function createDataset(server: TestServer, urn: string, fields: readonly string[] = []): Promise<void> {
  const proposals = [mcp(urn, 'status', { removed: false })];
  if (fields.length > 0) {
    proposals.push(
      mcp(urn, 'schemaMetadata', {
        schemaName: 'test',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: fields.map((fieldPath) => ({ fieldPath, type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'varchar' })),
      }),
    );
  }
  await ingest(server, ...proposals);
}

import assert from 'node:assert/strict';
import { ingest, mcp } from './graphql.ts';
import type { TestServer } from './server.ts';

/** The entity type of an urn (urn:li:<type>:...). */
const typeOf = (urn: string): string => urn.split(':')[2]!;

/** Makes each urn exist through one plain aspect of its type, as an emitter would. */
export async function createEntities(server: TestServer, ...urns: string[]): Promise<void> {
  const first: Record<string, [string, unknown]> = {
    domain: ['domainProperties', { name: 'A domain' }],
    glossaryTerm: ['glossaryTermInfo', { definition: 'A term', termSource: 'INTERNAL' }],
    glossaryNode: ['glossaryNodeInfo', { definition: 'A node' }],
    tag: ['tagProperties', { name: 'A tag' }],
  };
  await ingest(
    server,
    ...urns.map((urn) => {
      const [aspect, value] = first[typeOf(urn)] ?? ['status', { removed: false }];
      return mcp(urn, aspect, value, typeOf(urn));
    }),
  );
}

/** An aspect's latest value read back through Rest.li (`GET /entitiesV2`), the path DataHub's Java client reads. */
export async function restliAspect(server: TestServer, urn: string, aspect: string): Promise<Record<string, unknown> | undefined> {
  const res = await server.request('GET', `/entitiesV2/${encodeURIComponent(urn)}?aspects=List(${aspect})`);
  assert.equal(res.status, 200, res.text);
  return res.json.aspects?.[aspect]?.value;
}

/** The same aspect through OpenAPI v3 (`GET /openapi/v3/entity/{type}/{urn}`), with its system metadata. */
export async function openapiAspect(server: TestServer, urn: string, aspect: string) {
  const res = await server.request('GET', `/openapi/v3/entity/${typeOf(urn)}/${encodeURIComponent(urn)}`);
  assert.equal(res.status, 200, res.text);
  return res.json[aspect] as { value: Record<string, unknown>; systemMetadata: Record<string, any> } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
}

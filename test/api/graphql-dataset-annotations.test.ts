import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const ORDERS = ds('hive', 'shop.orders');
const EVENTS = ds('kafka', 'shop.events');
const GONE = ds('hive', 'shop.gone');
const stamp = { time: 1767225600000, actor: 'urn:li:corpuser:ingestion' };

const DATASET = `query d($urn: String!) {
  dataset(urn: $urn) {
    properties { name customProperties { key value associatedUrn } }
    ownership { owners { associatedUrn owner { __typename ... on CorpUser { urn username properties { displayName } } ... on CorpGroup { urn name } } ownershipType { urn } } lastModified { time actor } }
    tags { tags { associatedUrn context tag { urn name properties { name } } } }
    glossaryTerms { terms { associatedUrn term { urn name properties { name } } } }
    domain { associatedUrn domain { urn properties { name } } }
    schemaMetadata { fields { fieldPath tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } } } }
  }
}`;

const FACETS = `query s($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    total
    searchResults { entity { urn } }
    facets { field displayName aggregations { value count entity { urn ... on CorpUser { username } ... on Tag { properties { name } } } } }
  }
}`;

for (const backend of await backends()) {
  describe(`owners, tags, terms, domain and custom properties of a dataset, and search facets, over ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp('urn:li:corpuser:jdoe', 'corpUserInfo', { active: true, displayName: 'Jane Doe' }, 'corpuser'),
        mcp('urn:li:tag:pii', 'tagProperties', { name: 'PII' }, 'tag'),
        mcp('urn:li:glossaryTerm:Revenue', 'glossaryTermInfo', { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' }, 'glossaryTerm'),
        mcp('urn:li:domain:shop', 'domainProperties', { name: 'Shop' }, 'domain'),
        mcp(ORDERS, 'datasetProperties', { name: 'orders', customProperties: { tier: 'gold' } }),
        mcp(ORDERS, 'ownership', {
          owners: [
            { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER', typeUrn: 'urn:li:ownershipType:__system__business_owner' },
            { owner: 'urn:li:corpGroup:finance', type: 'TECHNICAL_OWNER' },
          ],
          lastModified: stamp,
        }),
        mcp(ORDERS, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii', context: 'classifier' }] }),
        mcp(ORDERS, 'glossaryTerms', { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }], auditStamp: stamp }),
        mcp(ORDERS, 'domains', { domains: ['urn:li:domain:shop'] }),
        mcp(ORDERS, 'schemaMetadata', {
          schemaName: 'orders',
          platform: 'urn:li:dataPlatform:hive',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            {
              fieldPath: 'email',
              type: { type: { 'com.linkedin.schema.StringType': {} } },
              nativeDataType: 'varchar',
              globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
              glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }], auditStamp: stamp },
            },
          ],
        }),
        mcp(EVENTS, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        mcp(EVENTS, 'deprecation', { deprecated: true, note: 'gone soon', actor: 'urn:li:corpuser:jdoe' }),
        mcp(GONE, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }], lastModified: stamp }),
        mcp(GONE, 'status', { removed: true }),
      );
    });

    it("reads a dataset's owners, tags, terms, domain and custom properties with DataHub's field names, as named entities", async () => {
      const { dataset } = await gqlData(server, DATASET, { urn: ORDERS });
      assert.deepEqual(dataset.properties.customProperties, [{ key: 'tier', value: 'gold', associatedUrn: ORDERS }]);
      assert.deepEqual(dataset.ownership, {
        owners: [
          {
            associatedUrn: ORDERS,
            owner: { __typename: 'CorpUser', urn: 'urn:li:corpuser:jdoe', username: 'jdoe', properties: { displayName: 'Jane Doe' } },
            ownershipType: { urn: 'urn:li:ownershipType:__system__business_owner' },
          },
          { associatedUrn: ORDERS, owner: { __typename: 'CorpGroup', urn: 'urn:li:corpGroup:finance', name: 'finance' }, ownershipType: null },
        ],
        lastModified: stamp,
      });
      assert.deepEqual(dataset.tags, {
        tags: [{ associatedUrn: ORDERS, context: 'classifier', tag: { urn: 'urn:li:tag:pii', name: 'pii', properties: { name: 'PII' } } }],
      });
      assert.deepEqual(dataset.glossaryTerms, {
        terms: [{ associatedUrn: ORDERS, term: { urn: 'urn:li:glossaryTerm:Revenue', name: 'Revenue', properties: { name: 'Revenue' } } }],
      });
      assert.deepEqual(dataset.domain, { associatedUrn: ORDERS, domain: { urn: 'urn:li:domain:shop', properties: { name: 'Shop' } } });
      assert.deepEqual(dataset.schemaMetadata.fields, [
        {
          fieldPath: 'email',
          tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' } }] },
          glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:Revenue' } }] },
        },
      ]);
    });

    it('answers null for a dataset without those aspects', async () => {
      const { dataset } = await gqlData(server, DATASET, { urn: EVENTS });
      assert.equal(dataset.ownership, null);
      assert.equal(dataset.glossaryTerms, null);
      assert.equal(dataset.domain, null);
      assert.equal(dataset.properties, null);
    });

    it('counts facets over every match, leaving soft-deleted datasets out unless asked, and names the entity of each value', async () => {
      type Facet = { field: string; aggregations: Array<{ value: string; count: number }> };
      const facet = (facets: Facet[], field: string) => facets.find((f) => f.field === field);
      const all = (await gqlData(server, FACETS, { input: { types: ['DATASET'], query: '*', count: 1 } })).searchAcrossEntities;
      assert.equal(all.total, 2);
      assert.equal(all.searchResults.length, 1);
      assert.deepEqual(facet(all.facets, 'platform'), {
        field: 'platform',
        displayName: 'Platform',
        aggregations: [
          { value: 'urn:li:dataPlatform:hive', count: 1, entity: { urn: 'urn:li:dataPlatform:hive' } },
          { value: 'urn:li:dataPlatform:kafka', count: 1, entity: { urn: 'urn:li:dataPlatform:kafka' } },
        ],
      });
      assert.deepEqual(facet(all.facets, 'tags')!, {
        field: 'tags',
        displayName: 'Tag',
        aggregations: [{ value: 'urn:li:tag:pii', count: 2, entity: { urn: 'urn:li:tag:pii', properties: { name: 'PII' } } }],
      });
      assert.deepEqual(facet(all.facets, 'owners')!, {
        field: 'owners',
        displayName: 'Owned By',
        aggregations: [
          { value: 'urn:li:corpGroup:finance', count: 1, entity: { urn: 'urn:li:corpGroup:finance' } },
          { value: 'urn:li:corpuser:jdoe', count: 1, entity: { urn: 'urn:li:corpuser:jdoe', username: 'jdoe' } },
        ],
      });
      assert.deepEqual(facet(all.facets, 'deprecated')!.aggregations, [{ value: 'true', count: 1, entity: null }]);

      const withRemoved = (await gqlData(server, FACETS, { input: { types: ['DATASET'], query: '*', searchFlags: { includeSoftDeleted: true } } }))
        .searchAcrossEntities;
      assert.equal(withRemoved.total, 3);
      assert.deepEqual(facet(withRemoved.facets, 'owners')!.aggregations.find((a) => a.value === 'urn:li:corpuser:jdoe')?.count, 2);

      const filtered = (
        await gqlData(server, FACETS, {
          input: { types: ['DATASET'], query: '*', orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }] },
        })
      ).searchAcrossEntities;
      assert.deepEqual(filtered.searchResults, [{ entity: { urn: EVENTS } }]);
      assert.deepEqual(facet(filtered.facets, 'owners')!.aggregations, []);
      assert.deepEqual(
        facet(filtered.facets, 'tags')!.aggregations.map((a) => a.count),
        [1],
      );

      const skipped = (await gqlData(server, FACETS, { input: { types: ['DATASET'], query: '*', searchFlags: { skipAggregates: true } } }))
        .searchAcrossEntities;
      assert.deepEqual(skipped.facets, []);
      assert.equal(skipped.total, 2);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { openapiAspect, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

let counter = 0;

const CREATE = 'mutation c($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { urn } }';
const UPDATE =
  'mutation u($input: UpdateStructuredPropertyInput!) { updateStructuredProperty(input: $input) { urn definition { displayName qualifiedName } } }';
const DELETE = 'mutation d($input: DeleteStructuredPropertyInput!) { deleteStructuredProperty(input: $input) }';
const UPSERT = `mutation a($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) { properties { structuredProperty { urn } } } }`;
const SEARCH = `query s($field: String!) {
  searchAcrossEntities(input: { types: [DATASET], query: "*", start: 0, count: 10, orFilters: [{ and: [{ field: $field, condition: EXISTS }] }] }) {
    total searchResults { entity { urn } }
  }
}`;

for (const backend of await backends()) {
  describe(`GraphQL structured property definitions: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const create = async (extra: Record<string, unknown> = {}): Promise<string> =>
      (
        await gqlData(server, CREATE, {
          input: {
            qualifiedName: `io.test.defs${++counter}`,
            valueType: 'urn:li:dataType:datahub.string',
            entityTypes: ['urn:li:entityType:datahub.dataset'],
            ...extra,
          },
        })
      ).createStructuredProperty.urn as string;

    /** Gives the dataset a value of each property ('a' and 'b'). */
    const assign = (dataset: string, first: string, second: string) =>
      gqlData(server, UPSERT, {
        input: {
          assetUrn: dataset,
          structuredPropertyInputParams: [
            { structuredPropertyUrn: first, values: [{ stringValue: 'a' }] },
            { structuredPropertyUrn: second, values: [{ stringValue: 'b' }] },
          ],
        },
      });

    it('updates a definition append only: new allowed values, entity types, cardinality raised', async () => {
      const urn = await create({ displayName: 'Tier', allowedValues: [{ stringValue: 'gold' }] });
      const answered = await gqlData(server, UPDATE, {
        input: {
          urn,
          displayName: 'Service tier',
          newAllowedValues: [{ stringValue: 'silver', description: 'second' }],
          setCardinalityAsMultiple: true,
          newEntityTypes: ['urn:li:entityType:datahub.chart'],
        },
      });
      const stored = await restliAspect(server, urn, 'propertyDefinition');
      assert.deepEqual(answered.updateStructuredProperty, { urn, definition: { displayName: 'Service tier', qualifiedName: urn.split(':')[3] } });
      assert.deepEqual(
        [stored?.displayName, stored?.cardinality, stored?.entityTypes, stored?.allowedValues],
        [
          'Service tier',
          'MULTIPLE',
          ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
          [{ value: { string: 'gold' } }, { value: { string: 'silver' }, description: 'second' }],
        ],
      );

      const reader = await actorWithRole(server, `defs-reader-${++counter}`, 'Reader');
      await gqlError(
        server,
        UPDATE,
        { input: { urn, displayName: 'Refused' } },
        { code: 403, type: 'UNAUTHORIZED', message: 'Unable to update structured property. Please contact your admin.' },
        { auth: reader },
      );
      assert.equal((await restliAspect(server, urn, 'propertyDefinition'))?.displayName, 'Service tier');
      await gqlError(
        server,
        UPDATE,
        { input: { urn: 'urn:li:structuredProperty:io.test.absent', displayName: 'x' } },
        { code: 400, type: 'BAD_REQUEST', message: 'Attempting to update a structured property with no definition aspect.' },
      );
      await gqlError(
        server,
        UPDATE,
        { input: { urn, newAllowedValues: [{ description: 'no value' }] } },
        { code: 400, type: 'BAD_REQUEST', message: 'input.newAllowedValues[0] must have a stringValue or a numberValue' },
      );
    });

    it("filters search on a property's values and, once it is deleted, drops every value of it", async () => {
      const dataset = `urn:li:dataset:(urn:li:dataPlatform:hive,defs.t${++counter},PROD)`;
      await createDataset(server, dataset);
      const [kept, deleted] = [await create(), await create()];
      await assign(dataset, kept, deleted);
      const found = async (property: string) =>
        (await gqlData(server, SEARCH, { field: `structuredProperties.${property.split(':')[3]}` })).searchAcrossEntities;
      assert.deepEqual(await found(deleted), { total: 1, searchResults: [{ entity: { urn: dataset } }] });

      const reader = await actorWithRole(server, `defs-deleter-${++counter}`, 'Reader');
      await gqlError(
        server,
        DELETE,
        { input: { urn: deleted } },
        { code: 403, type: 'UNAUTHORIZED', message: 'Unable to delete structured property. Please contact your admin.' },
        { auth: reader },
      );
      assert.ok(await restliAspect(server, deleted, 'propertyDefinition'));

      assert.deepEqual(await gqlData(server, DELETE, { input: { urn: deleted } }), { deleteStructuredProperty: true });
      assert.equal(await restliAspect(server, deleted, 'propertyDefinition'), undefined);
      const assigned = (await restliAspect(server, dataset, 'structuredProperties'))?.properties as Array<{ propertyUrn: string }>;
      assert.deepEqual(
        assigned.map((a) => a.propertyUrn),
        [kept],
      );
      assert.deepEqual(await found(deleted), { total: 0, searchResults: [] });
      assert.deepEqual(await found(kept), { total: 1, searchResults: [{ entity: { urn: dataset } }] });
      // A property that is not there: nothing to delete, and no error (DataHub's deleteEntity answers the same).
      assert.deepEqual(await gqlData(server, DELETE, { input: { urn: 'urn:li:structuredProperty:io.test.never' } }), {
        deleteStructuredProperty: true,
      });
      await gqlError(
        server,
        DELETE,
        { input: { urn: dataset } },
        { code: 400, type: 'BAD_REQUEST', message: `input.urn must be a structured property urn, got ${dataset}` },
      );
    });

    it("hides a soft-deleted property's values on every read and refuses a search filter on them", async () => {
      const dataset = `urn:li:dataset:(urn:li:dataPlatform:hive,defs.t${++counter},PROD)`;
      await createDataset(server, dataset);
      const [kept, hidden] = [await create(), await create()];
      await assign(dataset, kept, hidden);
      await ingest(server, mcp(hidden, 'status', { removed: true }, 'structuredProperty'));
      const propertiesOf = (value: Record<string, unknown> | undefined) =>
        (value?.properties as Array<{ propertyUrn: string }>).map((a) => a.propertyUrn);
      assert.deepEqual(propertiesOf(await restliAspect(server, dataset, 'structuredProperties')), [kept]);
      assert.deepEqual(propertiesOf((await openapiAspect(server, dataset, 'structuredProperties'))?.value), [kept]);
      const read = await gqlData(
        server,
        'query d($urn: String!) { dataset(urn: $urn) { structuredProperties { properties { structuredProperty { urn } } } } }',
        {
          urn: dataset,
        },
      );
      assert.deepEqual(read.dataset.structuredProperties.properties, [{ structuredProperty: { urn: kept } }]);
      const single = await server.request('GET', `/aspects/${encodeURIComponent(dataset)}?aspect=structuredProperties&version=0`);
      assert.deepEqual(propertiesOf(single.json.aspect?.['com.linkedin.structured.StructuredProperties']), [kept]);
      await gqlError(
        server,
        SEARCH,
        { field: `structuredProperties.${hidden.split(':')[3]}` },
        { code: 400, type: 'BAD_REQUEST', message: `Cannot filter on deleted Structured Property [${hidden}]` },
      );
      // Restored, the values are there again.
      await ingest(server, mcp(hidden, 'status', { removed: false }, 'structuredProperty'));
      assert.deepEqual(propertiesOf(await restliAspect(server, dataset, 'structuredProperties')), [kept, hidden]);
      // A hard delete drops only its own values, even beside a soft-deleted property's.
      await ingest(server, mcp(hidden, 'status', { removed: true }, 'structuredProperty'));
      await gqlData(server, DELETE, { input: { urn: kept } });
      await ingest(server, mcp(hidden, 'status', { removed: false }, 'structuredProperty'));
      assert.deepEqual(propertiesOf(await restliAspect(server, dataset, 'structuredProperties')), [hidden]);
    });

    it('stores display settings on create and merges them on update, refusing a hidden property shown anywhere', async () => {
      const SETTINGS = `mutation u($input: UpdateStructuredPropertyInput!) {
        updateStructuredProperty(input: $input) { settings { isHidden showInSearchFilters showInAssetSummary hideInAssetSummaryWhenEmpty showAsAssetBadge showInColumnsTable } }
      }`;
      const urn = await create({ settings: { showInSearchFilters: true, showInAssetSummary: true, hideInAssetSummaryWhenEmpty: true } });
      const created = await restliAspect(server, urn, 'structuredPropertySettings');
      assert.deepEqual(
        [created?.showInSearchFilters, created?.hideInAssetSummaryWhenEmpty, created?.isHidden, (created?.lastModified as { actor: string }).actor],
        [true, true, false, 'urn:li:corpuser:datahub'],
      );
      const updated = await gqlData(server, SETTINGS, { input: { urn, settings: { showInAssetSummary: false, showAsAssetBadge: true } } });
      assert.deepEqual(updated.updateStructuredProperty.settings, {
        isHidden: false,
        showInSearchFilters: true,
        showInAssetSummary: false,
        hideInAssetSummaryWhenEmpty: false,
        showAsAssetBadge: true,
        showInColumnsTable: false,
      });
      const before = await restliAspect(server, urn, 'structuredPropertySettings');
      await gqlError(
        server,
        SETTINGS,
        { input: { urn, displayName: 'Refused', settings: { isHidden: true } } },
        { code: 400, type: 'BAD_REQUEST', message: 'Cannot have property isHidden = true while other display location settings are also true.' },
      );
      assert.deepEqual(await restliAspect(server, urn, 'structuredPropertySettings'), before);
      assert.equal((await restliAspect(server, urn, 'propertyDefinition'))?.displayName, undefined);
    });
  });
}

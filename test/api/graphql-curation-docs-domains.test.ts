import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
const SALES = 'urn:li:domain:docs-sales';
const FINANCE = 'urn:li:domain:docs-finance';

let counter = 0;
const datasetUrn = (name = 'docs') => `urn:li:dataset:(urn:li:dataPlatform:hive,${name}.t${++counter},PROD)`;

const UPDATE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const SET = 'mutation setDomain($entityUrn: String!, $domainUrn: String!) { setDomain(entityUrn: $entityUrn, domainUrn: $domainUrn) }';
const UNSET = 'mutation unsetDomain($entityUrn: String!) { unsetDomain(entityUrn: $entityUrn) }';
const BATCH_SET = 'mutation batchSetDomain($input: BatchSetDomainInput!) { batchSetDomain(input: $input) }';

for (const backend of await backends()) {
  describe(`GraphQL description and domain mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await createEntities(server, SALES, FINANCE);
    });

    it("sets a dataset's editable description and a field's, leaving what ingestion wrote alone", async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      assert.deepEqual(await gqlData(server, UPDATE, { input: { resourceUrn: urn, description: 'Orders, one row each' } }), {
        updateDescription: true,
      });
      await gqlData(server, UPDATE, { input: { resourceUrn: urn, description: 'The key', subResourceType: 'DATASET_FIELD', subResource: 'id' } });
      assert.deepEqual(await restliAspect(server, urn, 'editableDatasetProperties'), { description: 'Orders, one row each' });
      assert.deepEqual(await restliAspect(server, urn, 'editableSchemaMetadata'), {
        editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The key' }],
      });
      await gqlData(server, UPDATE, { input: { resourceUrn: urn, description: 'Orders' } });
      assert.deepEqual(await restliAspect(server, urn, 'editableDatasetProperties'), { description: 'Orders' });
    });

    it('describes the other entity types where DataHub does: a tag gets its name, a glossary term its definition', async () => {
      const tag = `urn:li:tag:docs-${++counter}`;
      const term = `urn:li:glossaryTerm:docs-${counter}`;
      const container = `urn:li:container:docs-${counter}`;
      await createEntities(server, container);
      await ingest(server, mcp(tag, 'status', { removed: false }, 'tag'));
      await createEntities(server, term);
      for (const resourceUrn of [tag, term, container, SALES])
        await gqlData(server, UPDATE, { input: { resourceUrn, description: `About ${resourceUrn}` } });
      assert.deepEqual(await restliAspect(server, tag, 'tagProperties'), { name: `docs-${counter}`, description: `About ${tag}` });
      assert.deepEqual(await restliAspect(server, term, 'glossaryTermInfo'), { definition: `About ${term}`, termSource: 'INTERNAL' });
      assert.deepEqual(await restliAspect(server, container, 'editableContainerProperties'), { description: `About ${container}` });
      assert.equal((await restliAspect(server, SALES, 'domainProperties'))?.description, `About ${SALES}`);
    });

    it('refuses a type DataHub does not describe, a missing entity and a field not in the schema, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const chart = `urn:li:chart:(looker,docs${++counter})`;
      await gqlError(
        server,
        UPDATE,
        { input: { resourceUrn: chart, description: 'x' } },
        {
          ...BAD_REQUEST,
          message: `Failed to update description. Unsupported resource type ${chart} provided.`,
        },
      );
      const missing = datasetUrn('missing');
      await gqlError(
        server,
        UPDATE,
        { input: { resourceUrn: missing, description: 'x' } },
        {
          ...BAD_REQUEST,
          message: `Failed to update ${missing}. ${missing} does not exist.`,
        },
      );
      await gqlError(
        server,
        UPDATE,
        { input: { resourceUrn: urn, description: 'x', subResourceType: 'DATASET_FIELD', subResource: 'nope' } },
        {
          ...BAD_REQUEST,
          message: `Failed to update ${urn} & field nope. Field nope does not exist in the datasets schema.`,
        },
      );
      const term = `urn:li:glossaryTerm:bare-${counter}`;
      await ingest(server, mcp(term, 'status', { removed: false }, 'glossaryTerm'));
      await gqlError(
        server,
        UPDATE,
        { input: { resourceUrn: term, description: 'x' } },
        {
          ...BAD_REQUEST,
          message: 'Properties for this Glossary Term do not yet exist!',
        },
      );
      assert.equal(await restliAspect(server, urn, 'editableDatasetProperties'), undefined);
      assert.equal(await restliAspect(server, urn, 'editableSchemaMetadata'), undefined);
      assert.equal(await restliAspect(server, term, 'glossaryTermInfo'), undefined);
    });

    it('refuses a Reader on descriptions and domains, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const reader = await actorWithRole(server, `docs-reader-${++counter}`, 'Reader');
      await gqlError(server, UPDATE, { input: { resourceUrn: urn, description: 'x' } }, UNAUTHORIZED, { auth: reader });
      await gqlError(
        server,
        UPDATE,
        { input: { resourceUrn: urn, description: 'x', subResourceType: 'DATASET_FIELD', subResource: 'id' } },
        UNAUTHORIZED,
        {
          auth: reader,
        },
      );
      await gqlError(server, SET, { entityUrn: urn, domainUrn: SALES }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, BATCH_SET, { input: { domainUrn: SALES, resources: [{ resourceUrn: urn }] } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, UNSET, { entityUrn: urn }, UNAUTHORIZED, { auth: reader });
      assert.equal(await restliAspect(server, urn, 'editableDatasetProperties'), undefined);
      assert.equal(await restliAspect(server, urn, 'domains'), undefined);
    });

    it('sets, replaces, batch-sets and unsets the domain, read back through Rest.li', async () => {
      const [a, b] = [datasetUrn(), datasetUrn()];
      await createDataset(server, a);
      await createDataset(server, b);
      assert.deepEqual(await gqlData(server, SET, { entityUrn: a, domainUrn: SALES }), { setDomain: true });
      await gqlData(server, SET, { entityUrn: a, domainUrn: FINANCE });
      assert.deepEqual(await restliAspect(server, a, 'domains'), { domains: [FINANCE], domainAssociations: [{ domain: FINANCE }] });
      await gqlData(server, BATCH_SET, { input: { domainUrn: SALES, resources: [{ resourceUrn: a }, { resourceUrn: b }] } });
      assert.deepEqual(await restliAspect(server, b, 'domains'), { domains: [SALES], domainAssociations: [{ domain: SALES }] });
      assert.deepEqual(await gqlData(server, UNSET, { entityUrn: a }), { unsetDomain: true });
      assert.deepEqual(await restliAspect(server, a, 'domains'), { domains: [], domainAssociations: [] });
      await gqlData(server, BATCH_SET, { input: { domainUrn: null, resources: [{ resourceUrn: b }] } });
      assert.deepEqual(await restliAspect(server, b, 'domains'), { domains: [], domainAssociations: [] });
    });

    it('refuses a missing domain or entity with DataHub’s messages, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const nowhere = 'urn:li:domain:nowhere';
      const missing = datasetUrn('missing');
      await gqlError(
        server,
        SET,
        { entityUrn: urn, domainUrn: nowhere },
        {
          ...BAD_REQUEST,
          message: `Failed to add Entity ${urn} to Domain ${nowhere}. Domain does not exist.`,
        },
      );
      await gqlError(
        server,
        SET,
        { entityUrn: missing, domainUrn: SALES },
        {
          ...BAD_REQUEST,
          message: `Failed to add Entity ${missing} to Domain ${SALES}. Entity does not exist.`,
        },
      );
      await gqlError(
        server,
        BATCH_SET,
        { input: { domainUrn: nowhere, resources: [{ resourceUrn: urn }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to validate Domain with urn ${nowhere}. Urn does not exist.`,
        },
      );
      await gqlError(
        server,
        BATCH_SET,
        { input: { domainUrn: SALES, resources: [{ resourceUrn: urn }, { resourceUrn: missing }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to update resource with urn ${missing}. Entity does not exist.`,
        },
      );
      assert.equal(await restliAspect(server, urn, 'domains'), undefined);
    });
  });
}

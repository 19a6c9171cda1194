import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,refs.${name},PROD)`;
const PII = 'urn:li:tag:pii';
const KEEP = 'urn:li:tag:keep';
const ALICE = 'urn:li:corpuser:alice';
const DOMAIN = 'urn:li:domain:finance';
const CONTAINER = 'urn:li:container:db1';
const FLOW = 'urn:li:dataFlow:(airflow,refs,prod)';
const JOB = `urn:li:dataJob:(${FLOW},load)`;
const SYSTEM = 'urn:li:corpuser:__datahub_system';
const audit = { time: 1, actor: 'urn:li:corpuser:x' };
const field = (fieldPath: string, tags: string[]) => ({
  fieldPath,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nativeDataType: 'varchar',
  globalTags: { tags: tags.map((tag) => ({ tag })) },
});
const schema = (fields: unknown[]) => ({
  schemaName: 's',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
});

for (const backend of await backends()) {
  describe(`entities?action=deleteReferences: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const call = (body: Record<string, unknown>, auth?: string) =>
      server.request('POST', '/entities?action=deleteReferences', { body, ...(auth ? { auth } : {}) });
    const aspect = async (urn: string, name: string) => {
      const res = await server.request(
        'GET',
        `/openapi/v2/entity/${urn.split(':')[2]}/${encodeURIComponent(urn)}?aspectNames=${name}&systemMetadata=false`,
      );
      return res.status === 404 ? 'no entity' : res.json.aspects[name]?.value;
    };
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        mcp(PII, 'tagProperties', { name: 'pii' }, 'tag'),
        mcp(ds('a'), 'globalTags', { tags: [{ tag: PII }, { tag: KEEP }] }),
        mcp(ds('a'), 'schemaMetadata', schema([field('email', [PII]), field('id', [KEEP])])),
        mcp(ds('a'), 'ownership', {
          owners: [
            { owner: ALICE, type: 'DATAOWNER' },
            { owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' },
          ],
          lastModified: audit,
        }),
        mcp(ds('b'), 'globalTags', { tags: [{ tag: PII }] }),
        mcp(ds('b'), 'domains', { domains: [DOMAIN] }),
        mcp(ds('b'), 'container', { container: CONTAINER }),
        mcp(ds('c'), 'datasetProperties', { name: 'mentions urn:li:tag:pii in its description only', customProperties: {} }),
        mcp(JOB, 'dataJobInfo', { name: 'load', type: { string: 'BATCH' }, customProperties: {} }, 'dataJob'),
      );
    });

    it('counts the references in a dry run, names a sample, and changes nothing', async () => {
      const res = await call({ urn: PII, dryRun: true });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, {
        value: {
          total: 3,
          relatedAspects: [
            { entity: ds('a'), aspect: 'globalTags', relationship: 'TaggedWith' },
            { entity: ds('a'), aspect: 'schemaMetadata', relationship: 'SchemaFieldTaggedWith' },
            { entity: ds('b'), aspect: 'globalTags', relationship: 'TaggedWith' },
          ],
        },
      });
      assert.deepEqual(await aspect(ds('a'), 'globalTags'), { tags: [{ tag: PII }, { tag: KEEP }] });
    });

    it("removes a tag from every aspect that points at it, as DataHub's DeleteEntityService does", async () => {
      const res = await call({ urn: PII, dryRun: false });
      assert.equal(res.json.value.total, 3);
      assert.deepEqual(await aspect(ds('a'), 'globalTags'), { tags: [{ tag: KEEP }] });
      assert.deepEqual(await aspect(ds('b'), 'globalTags'), { tags: [] }, 'the required tags array stays, empty');
      const fields = (await aspect(ds('a'), 'schemaMetadata')).fields.map((f: { fieldPath: string; globalTags: unknown }) => [
        f.fieldPath,
        f.globalTags,
      ]);
      assert.deepEqual(fields, [
        ['email', { tags: [] }],
        ['id', { tags: [{ tag: KEEP }] }],
      ]);
      assert.equal((await aspect(ds('c'), 'datasetProperties')).name, 'mentions urn:li:tag:pii in its description only', 'text is not a reference');
      assert.deepEqual(await aspect(PII, 'tagProperties'), { name: 'pii' }, 'the tag itself stays');
      const history = await server.request('GET', `/aspects/${encodeURIComponent(ds('b'))}?aspect=globalTags&version=0`);
      assert.equal(history.status, 200);
      assert.deepEqual((await call({ urn: PII, dryRun: true })).json.value, { total: 0, relatedAspects: [] });
    });

    it('writes the changes as the system actor, keeping the old value as a version', async () => {
      const latest = await server.app.services.store.aspects.getAspect(ds('a'), 'globalTags');
      assert.equal(latest?.createdBy, SYSTEM);
      assert.deepEqual((await server.app.services.store.aspects.getAspect(ds('a'), 'globalTags', 1))?.value, { tags: [{ tag: PII }, { tag: KEEP }] });
    });

    it('drops an owner from an ownership list, and deletes an aspect whose only, required value was the urn', async () => {
      await call({ urn: ALICE });
      assert.deepEqual(
        (await aspect(ds('a'), 'ownership')).owners.map((o: { owner: string }) => o.owner),
        ['urn:li:corpuser:bob'],
      );
      await call({ urn: DOMAIN });
      // DataHub's domains sync hook derives domainAssociations from domains on every write of the aspect.
      assert.deepEqual(await aspect(ds('b'), 'domains'), { domains: [], domainAssociations: [] });
      assert.equal((await call({ urn: CONTAINER, dryRun: true })).json.value.total, 1);
      await call({ urn: CONTAINER });
      assert.equal(await aspect(ds('b'), 'container'), undefined, 'container.container is required: the aspect goes');
    });

    it("deletes a data job whose key names the flow, as DataHub's removal of a required key field does", async () => {
      assert.deepEqual((await call({ urn: FLOW, dryRun: true })).json.value, {
        total: 1,
        relatedAspects: [{ entity: JOB, aspect: 'dataJobKey', relationship: 'IsPartOf' }],
      });
      await call({ urn: FLOW });
      assert.equal(await aspect(JOB, 'dataJobInfo'), 'no entity');
    });

    it('refuses a parameter it does not take, and callers without the delete privilege', async () => {
      const res = await call({ urn: PII, dryrun: true });
      assert.equal(res.status, 400);
      assert.match(res.json.message, /Unknown parameter 'dryrun' for action 'deleteReferences'; it takes urn, dryRun/);
      assert.equal((await server.request('POST', '/entities?action=deleteReferences&dryRun=true', { body: { urn: PII } })).status, 400);
      const reader = await actorWithRole(server, 'reader', 'Reader');
      assert.equal((await call({ urn: PII, dryRun: true }, reader)).status, 403);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities, openapiAspect, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gql, gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const TERM2 = 'urn:li:glossaryTerm:Classification.Public';

let counter = 0;
const datasetUrn = (name = 'labels') => `urn:li:dataset:(urn:li:dataPlatform:hive,${name}.t${++counter},PROD)`;

// The documents DataHub's own clients send (smoke-test/tests/tags_and_terms, the SDK's graph helpers).
const ADD_TAG = 'mutation addTag($input: TagAssociationInput!) { addTag(input: $input) }';
const ADD_TAGS = 'mutation addTags($input: AddTagsInput!) { addTags(input: $input) }';
const REMOVE_TAG = 'mutation removeTag($input: TagAssociationInput!) { removeTag(input: $input) }';
const BATCH_ADD_TAGS = 'mutation batchAddTags($input: BatchAddTagsInput!) { batchAddTags(input: $input) }';
const BATCH_REMOVE_TAGS = 'mutation batchRemoveTags($input: BatchRemoveTagsInput!) { batchRemoveTags(input: $input) }';
const ADD_TERM = 'mutation addTerm($input: TermAssociationInput!) { addTerm(input: $input) }';
const ADD_TERMS = 'mutation addTerms($input: AddTermsInput!) { addTerms(input: $input) }';
const REMOVE_TERM = 'mutation removeTerm($input: TermAssociationInput!) { removeTerm(input: $input) }';
const BATCH_ADD_TERMS = 'mutation batchAddTerms($input: BatchAddTermsInput!) { batchAddTerms(input: $input) }';
const BATCH_REMOVE_TERMS = 'mutation batchRemoveTerms($input: BatchRemoveTermsInput!) { batchRemoveTerms(input: $input) }';
const SEARCH = 'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { searchResults { entity { urn } } } }';

const tagsOf = (value: Record<string, unknown> | undefined) => (value?.tags as Array<{ tag: string }> | undefined)?.map((t) => t.tag);
const termsOf = (value: Record<string, unknown> | undefined) => (value?.terms as Array<{ urn: string }> | undefined)?.map((t) => t.urn);
const fieldInfo = (value: Record<string, unknown> | undefined, fieldPath: string) =>
  (value?.editableSchemaFieldInfo as Array<Record<string, unknown>> | undefined)?.find((f) => f.fieldPath === fieldPath);

for (const backend of await backends()) {
  describe(`GraphQL tag and term mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await createEntities(server, PII, GOLD, TERM, TERM2);
    });

    it('adds a tag once, adds several, removes one, and Rest.li reads each state back', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      assert.deepEqual(await gqlData(server, ADD_TAG, { input: { tagUrn: PII, resourceUrn: urn } }), { addTag: true });
      await gqlData(server, ADD_TAG, { input: { tagUrn: PII, resourceUrn: urn } });
      assert.deepEqual(await restliAspect(server, urn, 'globalTags'), { tags: [{ tag: PII }] });
      await gqlData(server, ADD_TAGS, { input: { tagUrns: [PII, GOLD], resourceUrn: urn } });
      assert.deepEqual(tagsOf(await restliAspect(server, urn, 'globalTags')), [PII, GOLD]);
      assert.deepEqual(await gqlData(server, REMOVE_TAG, { input: { tagUrn: PII, resourceUrn: urn } }), { removeTag: true });
      assert.deepEqual(tagsOf(await restliAspect(server, urn, 'globalTags')), [GOLD]);
      // Marked as a UI write, as DataHub marks what its GraphQL mutations write.
      const stored = await openapiAspect(server, urn, 'globalTags');
      assert.deepEqual(stored?.value, { tags: [{ tag: GOLD }] });
      assert.equal(stored?.systemMetadata.properties.appSource, 'ui');
    });

    it("tags a schema field in the dataset's editableSchemaMetadata, leaving the schema as ingested", async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id', 'email']);
      const field = { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'email' };
      await gqlData(server, ADD_TAGS, { input: { tagUrns: [PII, GOLD], ...field } });
      await gqlData(server, REMOVE_TAG, { input: { tagUrn: GOLD, ...field } });
      const editable = await restliAspect(server, urn, 'editableSchemaMetadata');
      assert.deepEqual(fieldInfo(editable, 'email'), { fieldPath: 'email', globalTags: { tags: [{ tag: PII }] } });
      assert.equal(await restliAspect(server, urn, 'globalTags'), undefined);
      const schema = await restliAspect(server, urn, 'schemaMetadata');
      assert.equal((schema?.fields as Array<Record<string, unknown>>)[1]?.globalTags, undefined);
    });

    it('batch-adds tags to entities and fields in one transaction, and batch-removes them', async () => {
      const [a, b] = [datasetUrn(), datasetUrn()];
      await createDataset(server, a, ['id', 'email']);
      await createDataset(server, b);
      const resources = [
        { resourceUrn: a },
        { resourceUrn: b },
        { resourceUrn: a, subResourceType: 'DATASET_FIELD', subResource: 'id' },
        { resourceUrn: a, subResourceType: 'DATASET_FIELD', subResource: 'email' },
      ];
      assert.deepEqual(await gqlData(server, BATCH_ADD_TAGS, { input: { tagUrns: [PII, GOLD], resources } }), { batchAddTags: true });
      assert.deepEqual(tagsOf(await restliAspect(server, a, 'globalTags')), [PII, GOLD]);
      assert.deepEqual(tagsOf(await restliAspect(server, b, 'globalTags')), [PII, GOLD]);
      const editable = await restliAspect(server, a, 'editableSchemaMetadata');
      assert.deepEqual(
        (editable?.editableSchemaFieldInfo as Array<Record<string, unknown>>).map((f) => f.fieldPath),
        ['id', 'email'],
      );
      // Two fields of one dataset are one edit of its editableSchemaMetadata: one version, not two.
      const history = await server.request('GET', `/aspects/${encodeURIComponent(a)}?aspect=editableSchemaMetadata&version=1`);
      assert.equal(history.status, 404, history.text);
      await gqlData(server, BATCH_REMOVE_TAGS, { input: { tagUrns: [PII], resources } });
      assert.deepEqual(tagsOf(await restliAspect(server, b, 'globalTags')), [GOLD]);
      assert.deepEqual(tagsOf(fieldInfo(await restliAspect(server, a, 'editableSchemaMetadata'), 'id')?.globalTags as Record<string, unknown>), [
        GOLD,
      ]);
    });

    it('adds and removes glossary terms on entities and fields, stamped with the caller', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const editor = await actorWithRole(server, `labels-editor-${++counter}`, 'Editor');
      await gqlData(server, ADD_TERM, { input: { termUrn: TERM, resourceUrn: urn } }, { auth: editor });
      await gqlData(server, ADD_TERMS, { input: { termUrns: [TERM, TERM2], resourceUrn: urn } });
      const terms = await restliAspect(server, urn, 'glossaryTerms');
      assert.deepEqual(termsOf(terms), [TERM, TERM2]);
      assert.equal((terms?.auditStamp as { actor: string }).actor, ADMIN);
      await gqlData(server, REMOVE_TERM, { input: { termUrn: TERM, resourceUrn: urn } }, { auth: editor });
      const after = await restliAspect(server, urn, 'glossaryTerms');
      assert.deepEqual(termsOf(after), [TERM2]);
      assert.equal((after?.auditStamp as { actor: string }).actor, `urn:li:corpuser:labels-editor-${counter}`);

      const field = { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'id' };
      await gqlData(server, BATCH_ADD_TERMS, { input: { termUrns: [TERM, TERM2], resources: [field] } });
      await gqlData(server, BATCH_REMOVE_TERMS, { input: { termUrns: [TERM2], resources: [field, { resourceUrn: urn }] } });
      const editable = await restliAspect(server, urn, 'editableSchemaMetadata');
      assert.deepEqual(termsOf(fieldInfo(editable, 'id')?.glossaryTerms as Record<string, unknown>), [TERM]);
      assert.deepEqual(termsOf(await restliAspect(server, urn, 'glossaryTerms')), []);
    });

    it('feeds the timeline and the search index from the same write', async () => {
      const urn = datasetUrn('indexed');
      await createDataset(server, urn);
      await gqlData(server, ADD_TAG, { input: { tagUrn: GOLD, resourceUrn: urn } });
      const found = await gqlData(server, SEARCH, {
        input: { types: ['DATASET'], query: 'indexed', start: 0, count: 10, orFilters: [{ and: [{ field: 'tags', values: [GOLD] }] }] },
      });
      assert.deepEqual(
        found.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn),
        [urn],
      );
      const timeline = await server.request('GET', `/openapi/v2/timeline/v1/${encodeURIComponent(urn)}?categories=TAG`);
      assert.equal(timeline.status, 200, timeline.text);
      const events = timeline.json.flatMap((t: { changeEvents: Array<{ operation: string; modifier: string }> }) => t.changeEvents);
      assert.ok(
        events.some((e: { operation: string; modifier: string }) => e.operation === 'ADD' && e.modifier === GOLD),
        timeline.text,
      );
    });

    it('refuses a Reader with DataHub’s message on entities and fields, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const reader = await actorWithRole(server, `labels-reader-${++counter}`, 'Reader');
      const field = { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'id' };
      const body = await gqlError(server, ADD_TAG, { input: { tagUrn: PII, resourceUrn: urn } }, UNAUTHORIZED, { auth: reader });
      assert.deepEqual(body.data, { addTag: null });
      await gqlError(server, ADD_TERMS, { input: { termUrns: [TERM], ...field } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, BATCH_ADD_TAGS, { input: { tagUrns: [PII], resources: [field] } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, BATCH_REMOVE_TERMS, { input: { termUrns: [TERM], resources: [{ resourceUrn: urn }] } }, UNAUTHORIZED, { auth: reader });
      // A missing entity is not revealed to a caller who may not tag it.
      await gqlError(server, ADD_TAG, { input: { tagUrn: PII, resourceUrn: datasetUrn() } }, UNAUTHORIZED, { auth: reader });
      assert.equal(await restliAspect(server, urn, 'globalTags'), undefined);
      assert.equal(await restliAspect(server, urn, 'editableSchemaMetadata'), undefined);
    });

    it('refuses a missing entity, a missing or mistyped label, and a field not in the schema, with DataHub’s messages', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const missing = datasetUrn('missing');
      await gqlError(
        server,
        ADD_TAG,
        { input: { tagUrn: PII, resourceUrn: missing } },
        {
          ...BAD_REQUEST,
          message: `Failed to update resource with urn ${missing}. Entity does not exist.`,
        },
      );
      await gqlError(
        server,
        ADD_TAG,
        { input: { tagUrn: 'urn:li:tag:nowhere', resourceUrn: urn } },
        {
          ...BAD_REQUEST,
          message: 'Failed to validate label with urn urn:li:tag:nowhere. Urn does not exist.',
        },
      );
      await gqlError(
        server,
        ADD_TERMS,
        { input: { termUrns: [PII], resourceUrn: urn } },
        {
          ...BAD_REQUEST,
          message: `Failed to validate label with urn ${PII}. Urn type does not match entity type glossaryTerm..`,
        },
      );
      await gqlError(
        server,
        ADD_TAG,
        { input: { tagUrn: PII, resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'nope' } },
        { ...BAD_REQUEST, message: `Failed to update ${urn} & field nope. Field nope does not exist in the datasets schema.` },
      );
      await gqlError(
        server,
        ADD_TAG,
        { input: { tagUrn: PII, resourceUrn: urn, subResource: 'id' } },
        {
          ...BAD_REQUEST,
          message: `Failed to updates resource with urn ${urn}. SubResource (id) provided without a subResourceType.`,
        },
      );
      assert.equal(await restliAspect(server, urn, 'globalTags'), undefined);
      assert.equal(await restliAspect(server, urn, 'editableSchemaMetadata'), undefined);
    });

    it('writes nothing of a batch when one resource fails its check', async () => {
      const [good, bare] = [datasetUrn(), datasetUrn()];
      await createDataset(server, good, ['id']);
      await createDataset(server, bare);
      await gqlError(
        server,
        BATCH_ADD_TAGS,
        { input: { tagUrns: [PII], resources: [{ resourceUrn: good }, { resourceUrn: bare, subResourceType: 'DATASET_FIELD', subResource: 'id' }] } },
        { ...BAD_REQUEST, message: `Failed to update ${bare} & field id. ${bare} has no schema.` },
      );
      await gqlError(
        server,
        BATCH_REMOVE_TAGS,
        { input: { tagUrns: [PII], resources: [{ resourceUrn: good }, null] } },
        { ...BAD_REQUEST, message: 'resources[1] must not be null' },
      );
      assert.equal(await restliAspect(server, good, 'globalTags'), undefined);
    });

    it('refuses an unknown subResourceType by its enum, before running', async () => {
      const res = await gql(server, ADD_TAG, { input: { tagUrn: PII, resourceUrn: datasetUrn(), subResourceType: 'COLUMN', subResource: 'id' } });
      assert.match(res.json.errors[0].message, /Value "COLUMN" does not exist in "SubResourceType" enum/);
    });
  });
}

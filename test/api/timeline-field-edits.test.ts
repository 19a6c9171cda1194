import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEntities } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { createDataset, gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,field-edits.orders,PROD)';
const FIELD = `urn:li:schemaField:(${DATASET},email)`;
const TAG = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:Email';
const onEmail = { resourceUrn: DATASET, subResourceType: 'DATASET_FIELD', subResource: 'email' };
const TIMELINE = `query($input: GetTimelineInput!) {
  getTimeline(input: $input) { changeTransactions { changes { urn category operation modifier description parameters { key value } } } }
}`;

for (const backend of await backends()) {
  describe(`the timeline of a dataset's field edits (editableSchemaMetadata): ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await createDataset(s, DATASET, ['id', 'email']);
      await createEntities(s, TAG, TERM);
    });
    const changes = async (category: string) =>
      (await gqlData(server, TIMELINE, { input: { urn: DATASET, changeCategories: [category] } })).getTimeline.changeTransactions.flatMap(
        (t: { changes: unknown[] }) => t.changes,
      );
    const params = (c: { parameters: Array<{ key: string; value: string }> }) => Object.fromEntries(c.parameters.map((p) => [p.key, p.value]));

    it("shows a tag added to and removed from a field as DataHub's field tag events", async () => {
      await gqlData(server, 'mutation($input: AddTagsInput!) { addTags(input: $input) }', { input: { ...onEmail, tagUrns: [TAG] } });
      await gqlData(server, 'mutation($input: TagAssociationInput!) { removeTag(input: $input) }', { input: { ...onEmail, tagUrn: TAG } });
      const tags = await changes('TAG');
      assert.deepEqual(
        tags.map((c: { operation: string; urn: string; modifier: string; description: string }) => [c.operation, c.urn, c.modifier, c.description]),
        [
          ['ADD', FIELD, TAG, `Tag 'pii' added to entity '${FIELD}'.`],
          ['REMOVE', FIELD, TAG, `Tag 'pii' removed from entity '${FIELD}'.`],
        ],
      );
      assert.deepEqual(params(tags[0]), { fieldPath: 'email', parentUrn: DATASET, tagUrn: TAG, context: '{}' });
    });

    it('shows a term added to a field', async () => {
      await gqlData(server, 'mutation($input: AddTermsInput!) { addTerms(input: $input) }', { input: { ...onEmail, termUrns: [TERM] } });
      const terms = await changes('GLOSSARY_TERM');
      assert.equal(terms.length, 1);
      assert.equal(terms[0].description, `Term 'Email' added to entity '${FIELD}'.`);
      assert.deepEqual(params(terms[0]), { fieldPath: 'email', parentUrn: DATASET, termUrn: TERM, context: '{}' });
    });

    it("shows a field's description written and then changed", async () => {
      const describe = (description: string) =>
        gqlData(server, 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', { input: { ...onEmail, description } });
      await describe('Who placed it');
      await describe('Where the receipt went');
      const docs = (await changes('DOCUMENTATION')).filter((c: { urn: string }) => c.urn === FIELD);
      assert.deepEqual(
        docs.map((c: { operation: string; description: string }) => [c.operation, c.description]),
        [
          ['ADD', `Documentation for the field 'email' of '${FIELD}' has been added: 'Who placed it'`],
          ['MODIFY', `Documentation for the field 'email' of '${FIELD}' has been updated from 'Who placed it' to 'Where the receipt went'.`],
        ],
      );
      assert.deepEqual(params(docs[1]), { fieldPath: 'email', parentUrn: DATASET, description: 'Where the receipt went' });
    });
  });
}

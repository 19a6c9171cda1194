import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const TAG = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const DOMAIN = 'urn:li:domain:sales';
const OWNER = 'urn:li:corpuser:jdoe';
const ADMIN = 'urn:li:corpuser:datahub';

for (const backend of await clientBackends()) {
  describe(`Curation through DataHubGraph.execute_graphql, read back with get_aspect: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_curation.py', () => ({}));

    it('answers every mutation true', () => {
      for (const [name, answer] of run.result.answers) assert.equal(answer, true, name);
      assert.equal(run.result.answers.length, 22);
    });

    it("reads the dataset's tags, terms, owners, description and domain back as the SDK's classes", () => {
      const r = run.result;
      assert.deepEqual(r.globalTags, { tags: [{ tag: TAG }] });
      assert.deepEqual(
        r.glossaryTerms.terms.map((t: { urn: string }) => t.urn),
        [TERM],
      );
      assert.equal(r.glossaryTerms.auditStamp.actor, ADMIN);
      assert.deepEqual(r.ownership.owners, [
        { owner: OWNER, type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner', source: { type: 'MANUAL' } },
      ]);
      assert.equal(r.editableDatasetProperties.description, 'One row per order');
      assert.deepEqual(r.domains, { domains: [DOMAIN], domainAssociations: [{ domain: DOMAIN }] });
    });

    it("reads the field's tag, term and description in editableSchemaMetadata", () => {
      const [email] = run.result.editableSchemaMetadata.editableSchemaFieldInfo;
      assert.equal(email.fieldPath, 'email');
      assert.equal(email.description, 'Where we write');
      assert.deepEqual(email.globalTags, { tags: [{ tag: TAG }] });
      assert.deepEqual(
        email.glossaryTerms.terms.map((t: { urn: string }) => t.urn),
        [TERM],
      );
    });

    it('curates the container the same way, and removes its tag', () => {
      const c = run.result.container;
      assert.deepEqual(c.globalTags, { tags: [] });
      assert.equal(c.ownership.owners[0].type, 'BUSINESS_OWNER');
      assert.equal(c.editableContainerProperties.description, "The shop's schema");
      assert.deepEqual(c.domains, { domains: [DOMAIN], domainAssociations: [{ domain: DOMAIN }] });
    });

    it('curates a chart, a dashboard, a data flow, a data job, an ML model and a glossary term: tags, terms, owners, description', () => {
      const others = run.result.others as Record<string, { tags: string[]; terms: string[]; owners: string[]; description: string }>;
      assert.deepEqual(Object.keys(others).sort(), ['chart', 'dashboard', 'dataFlow', 'dataJob', 'glossaryTerm', 'mlModel']);
      for (const [kind, got] of Object.entries(others)) {
        assert.deepEqual(got.tags, [TAG], kind);
        assert.deepEqual(got.terms, kind === 'glossaryTerm' ? [] : [TERM], kind);
        assert.deepEqual(got.owners, [OWNER], kind);
        // Through updateDescription for an ML model and a glossary term, updateChart and the like for the others, as DataHub.
        assert.equal(got.description, `About the ${kind}`, kind);
      }
    });

    it("shows the user DataHub's error for a field the schema does not have", () => {
      // execute_graphql raises GraphError("Error executing graphql query: <the errors>").
      const refused: string = run.result.refused;
      assert.match(refused, /^Error executing graphql query: /);
      assert.ok(refused.includes(`Failed to update ${DATASET} & field nope. Field nope does not exist in the datasets schema.`), refused);
      assert.ok(refused.includes("'type': 'BAD_REQUEST'"), refused);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, mcp } from '../support/graphql.ts';
import { patchMcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,validation.t${++seq},PROD)`;
const jobUrn = () => `urn:li:dataJob:(urn:li:dataFlow:(airflow,validation,PROD),t${++seq})`;
const field = (dataset: string, column: string) => `urn:li:schemaField:(${dataset},${column})`;
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,my_model,PROD)';
const enc = encodeURIComponent;
const UP = 'urn:li:dataset:(urn:li:dataPlatform:hive,validation.up,PROD)';

/** DataHub's refusal of an ML model where UpstreamLineage's `dataset` (a DatasetUrn) is required. */
const modelRefusal = (entityType: string, path: string) =>
  `Invalid format for aspect: ${entityType}\n Cause: ERROR :: ${path} :: "Provided urn ${MODEL}" is invalid: ` +
  `Unable to instantiate urn type: com.linkedin.common.DatasetUrn with urn: ${MODEL}\n`;
const modelUpstream = { upstreams: [{ dataset: MODEL, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } }] };

/**
 * The fine-grained lineage, field-level term and tag, and domain patches below are exactly what acryl-datahub
 * 1.7.0.17's builders build (DataJobPatchBuilder / DatasetPatchBuilder: add_fine_grained_lineage,
 * remove_fine_grained_lineage, for_field(...).add_term / add_tag / remove_term, add_domain, remove_domain), with
 * the urns of each test.
 */
const fineGrainedOps = (op: 'add' | 'remove', down: string, ups: readonly string[], score?: number) =>
  ups.map((up) => ({ op, path: `/fineGrainedLineages/SUM/${down}/NONE/${up}`, value: score === undefined ? {} : { confidenceScore: score } }));
const DOMAIN_KEYS = { domainAssociations: ['attribution\u241fsource', 'domain'] };

for (const backend of await backends()) {
  describe(`DataHub's validation and patch templates: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const batch = (...proposals: unknown[]): Promise<HttpResult> =>
      server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals, async: 'false' } });
    const aspect = async (urn: string, name: string) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=${name}&version=0`);
      return res.status === 404 ? undefined : (Object.values(res.json.aspect)[0] as Record<string, unknown>);
    };

    it('refuses a synchronous batch naming an ML model where a dataset urn is required, writing none of it', async () => {
      // test_restli_batch_ingestion_exception_sync: status then upstreamLineage of one dataset, one batch.
      const urn = datasetUrn();
      const res = await batch(mcp(urn, 'status', { removed: false }), mcp(urn, 'upstreamLineage', modelUpstream));
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json.message, `proposals[1]: ${modelRefusal('dataset', '/upstreams/0/dataset')}`);
      assert.equal(await aspect(urn, 'status'), undefined);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: false });
    });

    it('refuses it in the asynchronous mode too, where Almanac writes before answering', async () => {
      const urn = datasetUrn();
      const res = await server.request('POST', '/aspects?action=ingestProposalBatch', {
        body: { proposals: [mcp(urn, 'status', { removed: false }), mcp(urn, 'upstreamLineage', modelUpstream)], async: 'true' },
      });
      assert.equal(res.status, 422, res.text);
      assert.equal(await aspect(urn, 'status'), undefined);
    });

    it('refuses a relationship destination of another type, an unknown entity type and a wrong key length', async () => {
      const urn = datasetUrn();
      const fine = { upstreams: [], fineGrainedLineages: [{ upstreamType: 'FIELD_SET', upstreams: ['urn:li:corpuser:x'], downstreamType: 'FIELD' }] };
      let res = await batch(mcp(urn, 'upstreamLineage', fine));
      assert.equal(res.status, 422, res.text);
      assert.match(
        res.json.message,
        /ERROR :: \/fineGrainedLineages\/0\/upstreams\/0 :: "Provided urn urn:li:corpuser:x" is invalid: Entity type for urn: urn:li:corpuser:x is not a valid destination for field path: \/fineGrainedLineages\/\*\/upstreams\/\*/,
      );
      res = await batch(mcp(urn, 'ownership', { owners: [{ owner: 'urn:li:nothing:x', type: 'DATAOWNER' }] }));
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.message, /Entity type nothing is missing from entity registry/);
      res = await batch(mcp(urn, 'ownership', { owners: [{ owner: 'urn:li:corpuser:(a,b)', type: 'DATAOWNER' }] }));
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.message, /Failed to convert urn to entity key: urns parts and key fields do not have same length/);
      assert.equal(await aspect(urn, 'ownership'), undefined);
    });

    it("refuses a strict @UrnValidation entity type with DataHub's message", async () => {
      const urn = 'urn:li:assertion:validation-a1';
      const run = { timestampMillis: Date.now(), runId: 'r1', asserteeUrn: 'urn:li:corpuser:x', assertionUrn: urn, status: 'COMPLETE' };
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(urn, 'assertionRunEvent', run, 'assertion'), async: 'false' },
      });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.json.message, 'Invalid entity type urn validation failure (Required: [dataset]). Path: /asserteeUrn Urn: urn:li:corpuser:x');
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: false });
    });

    it('refuses the same value over OpenAPI v3 and as the result of a PATCH', async () => {
      const urn = datasetUrn();
      let res = await server.request('POST', `/openapi/v3/entity/dataset?async=false`, {
        body: [{ urn, upstreamLineage: { value: modelUpstream } }],
      });
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.message ?? res.text, /Unable to instantiate urn type: com.linkedin.common.DatasetUrn/);
      const patch = patchMcp(urn, 'upstreamLineage', [{ op: 'add', path: `/upstreams/${MODEL}`, value: { dataset: MODEL, type: 'TRANSFORMED' } }]);
      res = await batch(mcp(urn, 'status', { removed: false }), patch);
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.message, /Unable to instantiate urn type: com.linkedin.common.DatasetUrn/);
      assert.equal(await aspect(urn, 'status'), undefined);
    });

    it('refuses a GraphQL write whose urn field names an entity type the registry lacks', async () => {
      const urn = datasetUrn();
      await batch(mcp(urn, 'status', { removed: false }));
      const res = await gql(server, 'mutation($i: UpdateDeprecationInput!) { updateDeprecation(input: $i) }', {
        i: { urn, deprecated: true, note: 'gone', replacement: 'urn:li:nothing:x' },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.errors?.length, 1, res.text);
      assert.equal(await aspect(urn, 'deprecation'), undefined);
    });

    it('accepts the urns the schema allows', async () => {
      const urn = datasetUrn();
      const ok = { upstreams: [{ dataset: UP, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } }] };
      assert.equal((await batch(mcp(urn, 'upstreamLineage', ok))).status, 200);
      assert.deepEqual((await aspect(urn, 'upstreamLineage'))?.upstreams, ok.upstreams);
    });

    it("patches a data job's fine-grained lineage as the SDK sends it: add two upstreams, then remove one", async () => {
      const job = jobUrn();
      const down = field(UP.replace('validation.up', 'validation.down'), 'x');
      const [a, b] = [field(UP, 'a'), field(UP, 'b')];
      const add = { ...patchMcp(job, 'dataJobInputOutput', fineGrainedOps('add', down, [a, b], 0.8)), entityType: 'dataJob' };
      assert.equal((await batch(add)).status, 200);
      const expected = { downstreams: [down], upstreamType: 'FIELD_SET', downstreamType: 'FIELD', confidenceScore: 0.8, transformOperation: 'SUM' };
      assert.deepEqual((await aspect(job, 'dataJobInputOutput'))?.fineGrainedLineages, [{ ...expected, upstreams: [a, b] }]);
      const remove = { ...patchMcp(job, 'dataJobInputOutput', fineGrainedOps('remove', down, [b])), entityType: 'dataJob' };
      assert.equal((await batch(remove)).status, 200);
      assert.deepEqual((await aspect(job, 'dataJobInputOutput'))?.fineGrainedLineages, [{ ...expected, upstreams: [a] }]);
      // The last upstream gone, the lineage goes too.
      assert.equal((await batch({ ...patchMcp(job, 'dataJobInputOutput', fineGrainedOps('remove', down, [a])), entityType: 'dataJob' })).status, 200);
      assert.deepEqual((await aspect(job, 'dataJobInputOutput'))?.fineGrainedLineages, []);
    });

    it("patches a dataset's fine-grained lineage beside its table lineage", async () => {
      const urn = datasetUrn();
      const down = field(urn, 'x');
      const up = { dataset: UP, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } };
      assert.equal((await batch(mcp(urn, 'upstreamLineage', { upstreams: [up] }))).status, 200);
      assert.equal((await batch(patchMcp(urn, 'upstreamLineage', fineGrainedOps('add', down, [field(UP, 'a')], 0.5)))).status, 200);
      const stored = await aspect(urn, 'upstreamLineage');
      assert.deepEqual(stored?.upstreams, [up]);
      assert.deepEqual(stored?.fineGrainedLineages, [
        {
          downstreams: [down],
          upstreams: [field(UP, 'a')],
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          confidenceScore: 0.5,
          transformOperation: 'SUM',
        },
      ]);
    });

    it('refuses to patch a fine-grained lineage with two downstreams, as DataHub does', async () => {
      const urn = datasetUrn();
      const two = {
        upstreamType: 'FIELD_SET',
        upstreams: [field(UP, 'a')],
        downstreamType: 'FIELD_SET',
        downstreams: [field(urn, 'x'), field(urn, 'y')],
      };
      assert.equal((await batch(mcp(urn, 'upstreamLineage', { upstreams: [], fineGrainedLineages: [two] }))).status, 200);
      const res = await batch(patchMcp(urn, 'upstreamLineage', fineGrainedOps('add', field(urn, 'x'), [field(UP, 'b')], 1)));
      assert.equal(res.status, 400, res.text);
      assert.match(res.json.message, /Patching not supported on fine grained lineages with not exactly one downstream/);
      assert.deepEqual((await aspect(urn, 'upstreamLineage'))?.fineGrainedLineages, [two]);
    });

    it("adds and removes a field's glossary term and tag in editableSchemaMetadata", async () => {
      const urn = datasetUrn();
      const add = patchMcp(urn, 'editableSchemaMetadata', [
        { op: 'add', path: '/editableSchemaFieldInfo/x/glossaryTerms/terms/urn:li:glossaryTerm:pii', value: { urn: 'urn:li:glossaryTerm:pii' } },
        { op: 'add', path: '/editableSchemaFieldInfo/x/globalTags/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } },
      ]);
      const res = await batch(add);
      assert.equal(res.status, 200, res.text);
      let info = (await aspect(urn, 'editableSchemaMetadata'))?.editableSchemaFieldInfo as Array<Record<string, Record<string, unknown>>>;
      assert.equal(info.length, 1);
      assert.equal(info[0]!.fieldPath as unknown, 'x');
      assert.deepEqual(info[0]!.glossaryTerms!.terms, [{ urn: 'urn:li:glossaryTerm:pii' }]);
      assert.deepEqual(info[0]!.globalTags, { tags: [{ tag: 'urn:li:tag:gold' }] });
      const remove = patchMcp(urn, 'editableSchemaMetadata', [
        { op: 'remove', path: '/editableSchemaFieldInfo/x/glossaryTerms/terms/urn:li:glossaryTerm:pii', value: {} },
      ]);
      assert.equal((await batch(remove)).status, 200);
      info = (await aspect(urn, 'editableSchemaMetadata'))?.editableSchemaFieldInfo as Array<Record<string, Record<string, unknown>>>;
      assert.deepEqual(info[0]!.glossaryTerms!.terms, []);
      assert.deepEqual(info[0]!.globalTags, { tags: [{ tag: 'urn:li:tag:gold' }] });
    });

    it("stamps a field's new glossary terms with the audit stamp the SDK needs to read them back, as DataHub's template does", async () => {
      const urn = datasetUrn();
      const before = Date.now();
      const add = patchMcp(urn, 'editableSchemaMetadata', [
        { op: 'add', path: '/editableSchemaFieldInfo/y/glossaryTerms/terms/urn:li:glossaryTerm:pii', value: { urn: 'urn:li:glossaryTerm:pii' } },
      ]);
      assert.equal((await batch(add)).status, 200);
      const info = (await aspect(urn, 'editableSchemaMetadata'))?.editableSchemaFieldInfo as Array<Record<string, Record<string, unknown>>>;
      const stamp = info[0]!.glossaryTerms!.auditStamp as { actor: string; time: number };
      assert.equal(stamp.actor, 'urn:li:corpuser:__datahub_system');
      assert.ok(stamp.time >= before, `stamped at ${stamp.time}`);
      // A stamp already there is kept.
      assert.equal((await batch(mcp(urn, 'glossaryTerms', { terms: [], auditStamp: { actor: 'urn:li:corpuser:a', time: 1 } }))).status, 200);
      const term = patchMcp(urn, 'glossaryTerms', [{ op: 'add', path: '/terms/urn:li:glossaryTerm:t', value: { urn: 'urn:li:glossaryTerm:t' } }]);
      assert.equal((await batch(term)).status, 200);
      assert.deepEqual((await aspect(urn, 'glossaryTerms'))?.auditStamp, { actor: 'urn:li:corpuser:a', time: 1 });
    });

    it('adds and removes domain associations keyed by attribution source and domain', async () => {
      const urn = datasetUrn();
      const add = (domain: string) =>
        patchMcp(urn, 'domains', {
          arrayPrimaryKeys: DOMAIN_KEYS,
          patch: [{ op: 'add', path: `/domainAssociations//${domain}`, value: { domain } }],
        });
      assert.equal((await batch(add('urn:li:domain:sales'))).status, 200);
      assert.equal((await batch(add('urn:li:domain:ops'))).status, 200);
      assert.deepEqual((await aspect(urn, 'domains'))?.domainAssociations, [{ domain: 'urn:li:domain:sales' }, { domain: 'urn:li:domain:ops' }]);
      const remove = patchMcp(urn, 'domains', {
        arrayPrimaryKeys: { domainAssociations: ['domain', 'attribution\u241fsource'] },
        patch: [{ op: 'remove', path: '/domainAssociations/urn:li:domain:sales', value: {} }],
      });
      assert.equal((await batch(remove)).status, 200);
      assert.deepEqual((await aspect(urn, 'domains'))?.domainAssociations, [{ domain: 'urn:li:domain:ops' }]);
      assert.deepEqual((await aspect(urn, 'domains'))?.domains, ['urn:li:domain:ops']);
    });

    it("keeps a domains aspect's domains and domainAssociations in step, as DataHub's sync hook does", async () => {
      const urn = datasetUrn();
      const [a, b, c] = ['urn:li:domain:a', 'urn:li:domain:b', 'urn:li:domain:c'];
      const attributed = { domain: b, context: 'why', attribution: { time: 1, actor: 'urn:li:corpuser:datahub', source: 'urn:li:dataHubAction:x' } };
      // The legacy list alone: the associations follow.
      assert.equal((await batch(mcp(urn, 'domains', { domains: [a] }))).status, 200);
      assert.deepEqual(await aspect(urn, 'domains'), { domains: [a], domainAssociations: [{ domain: a }] });
      // The associations alone changed (a read-modify-write that kept the old list): the list follows.
      assert.equal((await batch(mcp(urn, 'domains', { domains: [a], domainAssociations: [{ domain: a }, attributed] }))).status, 200);
      assert.deepEqual(await aspect(urn, 'domains'), { domains: [a, b], domainAssociations: [{ domain: a }, attributed] });
      // The list alone changed: associations of domains still named keep their attribution.
      assert.equal((await batch(mcp(urn, 'domains', { domains: [b, c], domainAssociations: [{ domain: a }, attributed] }))).status, 200);
      assert.deepEqual(await aspect(urn, 'domains'), { domains: [b, c], domainAssociations: [attributed, { domain: c }] });
      // Both changed, and they disagree: refused with DataHub's message, nothing written.
      const both = await batch(mcp(urn, 'domains', { domains: [a], domainAssociations: [{ domain: c }] }));
      assert.equal(both.status, 400, both.text);
      assert.match(both.json.message, /Cannot update both 'domains' and 'domainAssociations' in the same write\. .* Entity: urn:li:dataset:/);
      assert.deepEqual((await aspect(urn, 'domains'))?.domains, [b, c]);
      // A propagated association goes after the manual ones, in both fields.
      const propagated = {
        domain: a,
        attribution: { time: 1, actor: 'urn:li:corpuser:datahub', source: 'urn:li:dataHubAction:p', sourceDetail: { propagated: 'true' } },
      };
      assert.equal((await batch(mcp(urn, 'domains', { domains: [a, c], domainAssociations: [propagated, { domain: c }] }))).status, 200);
      assert.deepEqual(await aspect(urn, 'domains'), { domains: [c, a], domainAssociations: [{ domain: c }, propagated] });
      // A PATCH of the legacy list is synced too.
      assert.equal((await batch(patchMcp(urn, 'domains', [{ op: 'add', path: `/domains/${b}`, value: b }]))).status, 200);
      assert.deepEqual((await aspect(urn, 'domains'))?.domainAssociations, [{ domain: c }, { domain: b }, propagated]);
    });
  });
}

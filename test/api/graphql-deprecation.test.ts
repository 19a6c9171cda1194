import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gql, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)';
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };

let counter = 0;
const datasetUrn = (name = 'gql') => `urn:li:dataset:(urn:li:dataPlatform:hive,${name}.t${++counter},PROD)`;

// DataHub's own documents: smoke-test/tests/deprecation and docs/api/tutorials/deprecation.md.
const GET_DATASET = 'query getDataset($urn: String!) { dataset(urn: $urn) { deprecation { deprecated decommissionTime note actor } } }';
const UPDATE = 'mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const BATCH = 'mutation batchUpdateDeprecation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';
const FULL = `query full($urn: String!) {
  dataset(urn: $urn) {
    deprecation { deprecated decommissionTime note actor replacement { urn } }
    schemaMetadata { fields { fieldPath deprecation { deprecated note actor decommissionTime } } }
    deprecationHistory { version deprecated note actor time createdBy }
  }
}`;

for (const backend of await backends()) {
  describe(`GraphQL deprecation: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const full = async (urn: string) => (await gqlData(server, FULL, { urn })).dataset;
    useServer(backend, async (s) => {
      server = s;
      await createDataset(server, KAFKA);
    });

    it("answers the tutorial's read of a never-deprecated dataset with deprecated false, exactly", async () => {
      const urn = datasetUrn('tutorial');
      await createDataset(server, urn);
      const res = await server.request('POST', '/api/graphql', {
        body: { query: `{ dataset(urn: "${urn}") { deprecation { deprecated decommissionTime } } }`, variables: {} },
      });
      assert.equal(res.status, 200);
      assert.equal(res.text, '{"data":{"dataset":{"deprecation":{"deprecated":false,"decommissionTime":null}}},"extensions":{}}');
    });

    it("runs the tutorial's updateDeprecation with inline arguments and reads it back", async () => {
      const urn = datasetUrn('tutorial');
      await createDataset(server, urn);
      const res = await server.request('POST', '/api/graphql', {
        body: { query: `mutation { updateDeprecation(input: { urn: "${urn}", deprecated: true }) }`, variables: {} },
      });
      assert.equal(res.text, '{"data":{"updateDeprecation":true},"extensions":{}}');
      assert.deepEqual((await full(urn)).deprecation, { deprecated: true, decommissionTime: null, note: '', actor: ADMIN, replacement: null });
    });

    it("passes DataHub's all-fields smoke test through /api/v2/graphql", async () => {
      const v2 = { path: '/api/v2/graphql' };
      const before = await gqlData(server, GET_DATASET, { urn: KAFKA }, v2);
      assert.deepEqual(before.dataset.deprecation, { deprecated: false, decommissionTime: null, note: null, actor: null });
      const updated = await gqlData(server, UPDATE, { input: { urn: KAFKA, deprecated: true, note: 'My test note', decommissionTime: 0 } }, v2);
      assert.equal(updated.updateDeprecation, true);
      const after = await gqlData(server, GET_DATASET, { urn: KAFKA }, v2);
      assert.deepEqual(after.dataset.deprecation, { deprecated: true, decommissionTime: 0, note: 'My test note', actor: ADMIN });
    });

    it("passes DataHub's partial-fields smoke test: note becomes empty, time and replacement are cleared", async () => {
      const urn = datasetUrn('partial');
      await createDataset(server, urn);
      await gqlData(server, UPDATE, { input: { urn, deprecated: true, note: 'old', decommissionTime: 1700000000000, replacement: KAFKA } });
      const updated = await gqlData(server, UPDATE, { input: { urn, deprecated: false } });
      assert.equal(updated.updateDeprecation, true);
      const after = await gqlData(server, GET_DATASET, { urn });
      assert.deepEqual(after.dataset.deprecation, { deprecated: false, note: '', actor: ADMIN, decommissionTime: null });
      assert.equal((await full(urn)).deprecation.replacement, null);
    });

    it('records the caller as actor, whoever it is', async () => {
      const urn = datasetUrn('actor');
      await createDataset(server, urn);
      const editor = await actorWithRole(server, `editor${counter}`, 'Editor');
      await gqlData(server, UPDATE, { input: { urn, deprecated: true } }, { auth: editor });
      const { deprecation, deprecationHistory } = await full(urn);
      assert.equal(deprecation.actor, `urn:li:corpuser:editor${counter}`);
      assert.equal(deprecationHistory[0].createdBy, `urn:li:corpuser:editor${counter}`);
    });

    it('keeps a replacement that exists, and refuses one that does not, changing nothing', async () => {
      const urn = datasetUrn('replace');
      await createDataset(server, urn);
      await gqlData(server, UPDATE, { input: { urn, deprecated: true, replacement: KAFKA } });
      assert.deepEqual((await full(urn)).deprecation.replacement, { urn: KAFKA });
      const missing = 'urn:li:dataset:(urn:li:dataPlatform:hive,nowhere,PROD)';
      const body = await gqlError(
        server,
        UPDATE,
        { input: { urn, deprecated: false, replacement: missing } },
        {
          ...BAD_REQUEST,
          message: `Failed to update deprecation for Entity ${urn}. Replacement entity ${missing} does not exist.`,
        },
      );
      assert.deepEqual(body.data, { updateDeprecation: null });
      await gqlError(
        server,
        UPDATE,
        { input: { urn, deprecated: false, replacement: 'nonsense' } },
        { ...BAD_REQUEST, message: "Invalid replacement urn: Urn doesn't start with 'urn:'. Urn: nonsense" },
      );
      const after = await full(urn);
      assert.equal(after.deprecation.deprecated, true);
      assert.equal(after.deprecationHistory.length, 1);
    });

    it('fails an update of a missing entity with HTTP 200, a null field and a BAD_REQUEST error', async () => {
      const urn = datasetUrn('missing');
      const res = await gql(server, UPDATE, { input: { urn, deprecated: true } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, {
        errors: [
          {
            message: `Failed to update deprecation for Entity ${urn}. Entity does not exist.`,
            locations: [{ line: 1, column: 63 }],
            path: ['updateDeprecation'],
            extensions: BAD_REQUEST,
          },
        ],
        data: { updateDeprecation: null },
        extensions: {},
      });
      assert.equal((await gqlData(server, GET_DATASET, { urn })).dataset, null);
    });

    it('answers null for a well-formed urn of a dataset that does not exist', async () => {
      const data = await gqlData(server, GET_DATASET, { urn: datasetUrn('absent') });
      assert.deepEqual(data, { dataset: null });
    });

    it('rejects malformed urns with BAD_REQUEST naming the problem', async () => {
      const cases: Array<[string, string | RegExp]> = [
        ['dataset', "Urn doesn't start with 'urn:'. Urn: dataset"],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,t)', /Invalid number of keys/],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,t,prod)', /FabricType\.prod/],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD', 'mismatched paren nesting'],
        ['urn:li:corpuser:datahub', /is not a dataset urn/],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD) ', 'Error: cannot provide an URN with leading or trailing whitespace'],
      ];
      for (const [urn, message] of cases) {
        const body = await gqlError(server, GET_DATASET, { urn }, { ...BAD_REQUEST, message });
        assert.deepEqual(body.data, { dataset: null });
      }
      await gqlError(
        server,
        UPDATE,
        { input: { urn: 'urn:li:dataset', deprecated: true } },
        { ...BAD_REQUEST, message: 'Urns with empty entityKey are not allowed. Urn: urn:li:dataset' },
      );
    });

    it('deprecates every resource of a batch in one call', async () => {
      const [a, b] = [datasetUrn('batch'), datasetUrn('batch')];
      await createDataset(server, a);
      await createDataset(server, b);
      const data = await gqlData(server, BATCH, {
        input: { deprecated: true, note: 'Use c', decommissionTime: 42, resources: [{ resourceUrn: a }, { resourceUrn: b }] },
      });
      assert.equal(data.batchUpdateDeprecation, true);
      for (const urn of [a, b])
        assert.deepEqual((await full(urn)).deprecation, { deprecated: true, decommissionTime: 42, note: 'Use c', actor: ADMIN, replacement: null });
    });

    it('fails a batch naming a missing entity, leaving the existing resources unchanged', async () => {
      const [a, missing] = [datasetUrn('batchmiss'), datasetUrn('batchmiss')];
      await createDataset(server, a);
      const body = await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, resources: [{ resourceUrn: a }, { resourceUrn: missing }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to update resource with urn ${missing}. Entity does not exist.`,
        },
      );
      assert.deepEqual(body.data, { batchUpdateDeprecation: null });
      assert.deepEqual(body.errors[0].path, ['batchUpdateDeprecation']);
      const after = await full(a);
      assert.equal(after.deprecation.deprecated, false);
      assert.deepEqual(after.deprecationHistory, []);
    });

    it('fails a batch with a malformed resource urn or a missing replacement, changing nothing', async () => {
      const a = datasetUrn('batchbad');
      await createDataset(server, a);
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, resources: [{ resourceUrn: a }, { resourceUrn: 'urn:li:dataset' }] } },
        {
          ...BAD_REQUEST,
          message: /^Urns with empty entityKey are not allowed\. Urn: urn:li:dataset$/,
        },
      );
      const missing = datasetUrn('batchbad');
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, replacement: missing, resources: [{ resourceUrn: a }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to batch update deprecation. Replacement entity ${missing} does not exist.`,
        },
      );
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, replacement: '', resources: [{ resourceUrn: a }] } },
        {
          ...BAD_REQUEST,
          message: /^Invalid replacement urn: Urn doesn't start with 'urn:'/,
        },
      );
      const after = await full(a);
      assert.deepEqual([after.deprecation.deprecated, after.deprecationHistory], [false, []]);
    });

    it('writes nothing when the last resource of a batch is invalid (atomic batch)', async () => {
      const [a, b] = [datasetUrn('atomic'), datasetUrn('atomic')];
      await createDataset(server, a, ['id']);
      await createDataset(server, b, ['id']);
      await gqlData(server, BATCH, { input: { deprecated: true, note: 'first', resources: [{ resourceUrn: a }] } });
      const resources = [
        { resourceUrn: a },
        { resourceUrn: b },
        { resourceUrn: b, subResourceType: 'DATASET_FIELD', subResource: 'id' },
        { resourceUrn: b, subResourceType: 'DATASET_FIELD', subResource: 'nope' },
      ];
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: false, note: 'second', resources } },
        {
          ...BAD_REQUEST,
          message: `Failed to update ${b} & field nope. Field nope does not exist in the datasets schema.`,
        },
      );
      const [afterA, afterB] = [await full(a), await full(b)];
      assert.deepEqual([afterA.deprecation.deprecated, afterA.deprecation.note, afterA.deprecationHistory.length], [true, 'first', 1]);
      assert.deepEqual([afterB.deprecation.deprecated, afterB.deprecationHistory.length], [false, 0]);
      assert.equal(afterB.schemaMetadata.fields[0].deprecation.deprecated, false);
    });

    it('deprecates dataset fields on their schemaField entities and reads them back through the schema', async () => {
      const urn = datasetUrn('fields');
      await createDataset(server, urn, ['id', 'email', 'address(street,zip)']);
      const data = await gqlData(server, BATCH, {
        input: {
          deprecated: true,
          note: 'PII',
          resources: [
            { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'email' },
            { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'address(street,zip)' },
          ],
        },
      });
      assert.equal(data.batchUpdateDeprecation, true);
      const dataset = await full(urn);
      assert.equal(dataset.deprecation.deprecated, false, 'the dataset itself is not deprecated');
      assert.deepEqual(
        dataset.schemaMetadata.fields.map((f: { fieldPath: string; deprecation: { deprecated: boolean; note: string | null } }) => [
          f.fieldPath,
          f.deprecation.deprecated,
          f.deprecation.note,
        ]),
        [
          ['id', false, null],
          ['email', true, 'PII'],
          ['address(street,zip)', true, 'PII'],
        ],
      );
      // The field is an entity of its own, with DataHub's percent-encoded urn.
      const fieldUrn = `urn:li:schemaField:(${urn},address%28street%2Czip%29)`;
      const exists = await server.request('POST', '/entities?action=exists', { body: { urn: fieldUrn } });
      assert.deepEqual(exists.json, { value: true });
      const history = await gqlData(server, 'query h($urn: String!) { deprecationHistory(urn: $urn) { deprecated note actor createdBy } }', {
        urn: fieldUrn,
      });
      assert.deepEqual(history.deprecationHistory, [{ deprecated: true, note: 'PII', actor: ADMIN, createdBy: ADMIN }]);
    });

    it("refuses sub-resources with DataHub's messages", async () => {
      const urn = datasetUrn('subres');
      const noSchema = datasetUrn('subres');
      await createDataset(server, urn, ['id']);
      await createDataset(server, noSchema);
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { resourceUrn: urn, subResourceType: 'DATASET_FIELD' },
          `Failed to update resource with urn ${urn}. SubResourceType (DATASET_FIELD) provided without a subResource.`,
        ],
        [
          { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: '' },
          `Failed to update resource with urn ${urn}. SubResourceType (DATASET_FIELD) provided without a subResource.`,
        ],
        [{ resourceUrn: urn, subResource: 'id' }, `Failed to updates resource with urn ${urn}. SubResource (id) provided without a subResourceType.`],
        [
          { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'other' },
          `Failed to update ${urn} & field other. Field other does not exist in the datasets schema.`,
        ],
        [
          { resourceUrn: noSchema, subResourceType: 'DATASET_FIELD', subResource: 'id' },
          `Failed to update ${noSchema} & field id. ${noSchema} has no schema.`,
        ],
      ];
      for (const [resource, message] of cases)
        await gqlError(server, BATCH, { input: { deprecated: true, resources: [resource] } }, { ...BAD_REQUEST, message });
      assert.deepEqual((await full(urn)).deprecationHistory, []);
    });

    it('keeps every version of the deprecation with who wrote it and when, newest first', async () => {
      const urn = datasetUrn('history');
      await createDataset(server, urn);
      const start = Date.now();
      await gqlData(server, UPDATE, { input: { urn, deprecated: true, note: 'v1' } });
      const editor = await actorWithRole(server, `historian${counter}`, 'Editor');
      await gqlData(server, UPDATE, { input: { urn, deprecated: true, note: 'v2', decommissionTime: 99 } }, { auth: editor });
      await gqlData(server, UPDATE, { input: { urn, deprecated: false } });
      const { deprecationHistory } = await gqlData(
        server,
        'query h($urn: String!) { dataset(urn: $urn) { deprecationHistory(limit: 10) { version deprecated note decommissionTime actor replacement time createdBy } } }',
        { urn },
      ).then((d) => d.dataset);
      assert.deepEqual(
        deprecationHistory.map((h: Record<string, unknown>) => [h.version, h.deprecated, h.note, h.decommissionTime, h.actor, h.createdBy]),
        [
          [0, false, '', null, ADMIN, ADMIN],
          [2, true, 'v2', 99, `urn:li:corpuser:historian${counter}`, `urn:li:corpuser:historian${counter}`],
          [1, true, 'v1', null, ADMIN, ADMIN],
        ],
      );
      const times = deprecationHistory.map((h: { time: number }) => h.time);
      assert.ok(
        times.every((t: number) => t >= start && t <= Date.now()),
        String(times),
      );
      assert.deepEqual(
        [...times].sort((x, y) => y - x),
        times,
      );
      const limited = await gqlData(server, 'query h($urn: String!) { deprecationHistory(urn: $urn, limit: 1) { version note } }', { urn });
      assert.deepEqual(limited.deprecationHistory, [{ version: 0, note: '' }]);
      await gqlError(
        server,
        'query h($urn: String!) { deprecationHistory(urn: $urn, limit: 0) { version } }',
        { urn },
        { ...BAD_REQUEST, message: 'limit must be an integer from 1 to 1000, got 0' },
      );
    });

    it('refuses a caller without EDIT_ENTITY or EDIT_DEPRECATION_PRIVILEGE with 403 UNAUTHORIZED, changing nothing', async () => {
      const urn = datasetUrn('denied');
      await createDataset(server, urn);
      const reader = await actorWithRole(server, `reader${counter}`, 'Reader');
      const expected = {
        code: 403,
        type: 'UNAUTHORIZED',
        message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      };
      const single = await gqlError(server, UPDATE, { input: { urn, deprecated: true } }, expected, { auth: reader });
      assert.deepEqual(single.data, { updateDeprecation: null });
      await gqlError(server, BATCH, { input: { deprecated: true, resources: [{ resourceUrn: urn }] } }, expected, { auth: reader });
      // A missing entity is not revealed to a caller who may not deprecate.
      await gqlError(server, UPDATE, { input: { urn: datasetUrn('denied'), deprecated: true } }, expected, { auth: reader });
      const read = await gqlData(server, GET_DATASET, { urn }, { auth: reader });
      assert.equal(read.dataset.deprecation.deprecated, false);
    });

    it('refuses an oversize batch before looking at any resource', async () => {
      const urn = datasetUrn('oversize');
      await createDataset(server, urn);
      const resources = Array.from({ length: 1001 }, () => ({ resourceUrn: urn }));
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, resources } },
        { ...BAD_REQUEST, message: 'batchUpdateDeprecation accepts at most 1000 resources, got 1001' },
      );
      await gqlError(
        server,
        BATCH,
        { input: { deprecated: true, resources: [{ resourceUrn: urn }, null] } },
        { ...BAD_REQUEST, message: 'resources[1] must not be null' },
      );
      assert.deepEqual((await full(urn)).deprecationHistory, []);
    });

    it('reads several aliased datasets, profiles and the caller in one request', async () => {
      const urns = [datasetUrn('alias'), datasetUrn('alias')];
      for (const urn of urns) await createDataset(server, urn);
      const day = Date.UTC(2026, 0, 10);
      for (const [i, urn] of urns.entries()) {
        await ingest(
          server,
          ...[-2, -1, 0].map((off) =>
            mcp(urn, 'datasetProfile', {
              timestampMillis: day + off * 86_400_000,
              rowCount: (3 + off) * 100 + i,
              columnCount: 5,
              messageId: `${urn}-day${off}`,
            }),
          ),
        );
      }
      const data = await gqlData(
        server,
        `query q($a: String!, $b: String!, $missing: String!) {
          me { corpUser { urn username } }
          d0: dataset(urn: $a) { urn name platform { urn name } status { removed } exists datasetProfiles(limit: 1) { rowCount columnCount timestampMillis } }
          d1: dataset(urn: $b) { datasetProfiles(startTimeMillis: ${day - 86_400_000}, endTimeMillis: ${day - 1}) { rowCount } }
          none: dataset(urn: $missing) { urn }
        }`,
        { a: urns[0], b: urns[1], missing: datasetUrn('alias') },
      );
      assert.deepEqual(data.me, { corpUser: { urn: ADMIN, username: 'datahub' } });
      assert.deepEqual(data.d0, {
        urn: urns[0],
        name: urns[0]!.split(',')[1],
        platform: { urn: 'urn:li:dataPlatform:hive', name: 'hive' },
        status: { removed: false },
        exists: true,
        datasetProfiles: [{ rowCount: 300, columnCount: 5, timestampMillis: day }],
      });
      assert.deepEqual(data.d1.datasetProfiles, [{ rowCount: 201 }]);
      assert.equal(data.none, null);
    });
  });
}

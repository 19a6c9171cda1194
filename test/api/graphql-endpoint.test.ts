import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, printType, type IntrospectionQuery } from 'graphql';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gql, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UPDATE = 'mutation u($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const READ = 'query r($urn: String!) { dataset(urn: $urn) { deprecation { deprecated note } deprecationHistory { version } } }';

let counter = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,endpoint.t${++counter},PROD)`;

for (const backend of await backends()) {
  describe(`GraphQL endpoint: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    /** The dataset's deprecation is untouched: never deprecated, no version stored. */
    const assertUnchanged = async (urn: string) => {
      const data = await gqlData(server, READ, { urn });
      assert.deepEqual(data.dataset, { deprecation: { deprecated: false, note: null }, deprecationHistory: [] });
    };
    useServer(backend, (s) => {
      server = s;
    });

    it('refuses a request without a token with 401 before executing anything', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const res = await gql(server, UPDATE, { input: { urn, deprecated: true } }, { auth: null });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="almanac"');
      assert.deepEqual(res.json.errors, [{ message: "Request is missing 'Authorization' header.", extensions: { code: 401, type: 'UNAUTHORIZED' } }]);
      assert.equal((await gql(server, UPDATE, { input: { urn, deprecated: true } }, { auth: 'Bearer not-a-token' })).status, 401);
      await assertUnchanged(urn);
    });

    it('answers 400 with an errors array to a body that cannot be parsed', async () => {
      const cases: Array<[{ body?: unknown; rawBody?: string }, string]> = [
        [{ rawBody: '{"query": ' }, 'Request body is not valid JSON'],
        [{ rawBody: '' }, 'Request body must be a JSON object with a "query" string'],
        [{ body: [] }, 'Request body must be a JSON object with a "query" string'],
        [{ body: { variables: {} } }, 'Request body must have a non-empty "query" string'],
        [{ body: { query: 42 } }, 'Request body must have a non-empty "query" string'],
        [{ body: { query: '{ me { corpUser { urn } } }', variables: '{}' } }, '"variables" must be a JSON object'],
        [{ body: { query: '{ me { corpUser { urn } } }', operationName: 1 } }, '"operationName" must be a string'],
      ];
      for (const [request, message] of cases) {
        const res = await server.request('POST', '/api/graphql', { ...request, headers: { 'Content-Type': 'application/json' } });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json.errors, [{ message, extensions: BAD_REQUEST }], JSON.stringify(request));
      }
    });

    it('answers GET with 405', async () => {
      const res = await server.request('GET', '/api/graphql');
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });

    it('serves the same API at /api/graphql, /api/v2/graphql and under /api/gms', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const bodies = [];
      for (const path of ['/api/graphql', '/api/v2/graphql', '/api/gms/api/graphql', '/api/gms/api/v2/graphql']) {
        const res = await gql(server, READ, { urn }, { path });
        assert.equal(res.status, 200, path);
        bodies.push(res.text);
      }
      assert.equal(new Set(bodies).size, 1);
    });

    it('reports syntax errors and unknown fields as BAD_REQUEST without executing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const unterminated = `mutation { updateDeprecation(input: {urn: "${urn}", deprecated: true}) `;
      const syntax = await gqlError(server, unterminated, {}, { ...BAD_REQUEST, message: 'Syntax Error: Expected Name, found <EOF>.' });
      assert.equal('data' in syntax, false);
      assert.deepEqual(syntax.errors[0].locations, [{ line: 1, column: unterminated.length + 1 }]);
      // The whole document is validated first, so the valid mutation next to the bad query never runs.
      const doc = `mutation m { updateDeprecation(input: {urn: "${urn}", deprecated: true}) } query q { dataset(urn: "${urn}") { frobnicate } }`;
      const unknown = await gqlError(
        server,
        doc,
        {},
        { ...BAD_REQUEST, message: 'Cannot query field "frobnicate" on type "Dataset".' },
        { operationName: 'm' },
      );
      assert.equal('data' in unknown, false);
      await gqlError(
        server,
        `mutation { updateDeprecation(input: {urn: "${urn}", deprecated: true, colour: "red"}) }`,
        {},
        {
          ...BAD_REQUEST,
          message: 'Field "colour" is not defined by type "UpdateDeprecationInput".',
        },
      );
      await assertUnchanged(urn);
    });

    it('rejects variables of the wrong type with a message naming the field, changing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const cases: Array<[Record<string, unknown> | undefined, RegExp]> = [
        [undefined, /Variable "\$input" of required type "UpdateDeprecationInput!" was not provided/],
        [{ input: { urn, deprecated: 'yes' } }, /at "input\.deprecated"; Boolean cannot represent a non boolean value: "yes"/],
        [{ input: { urn } }, /Field "deprecated" of required type "Boolean!" was not provided/],
        [{ input: { urn: 7, deprecated: true } }, /at "input\.urn"; String cannot represent a non string value: 7/],
        [
          { input: { urn, deprecated: true, decommissionTime: 1.5 } },
          /at "input\.decommissionTime"; Long cannot represent a non-integer value: 1\.5/,
        ],
        [{ input: { urn, deprecated: true, decommissionTime: 'soon' } }, /Long cannot represent a non-integer value: "soon"/],
        [{ input: { urn, deprecated: true, decommissionTime: 2 ** 60 } }, /Long cannot represent 1152921504606847000 exactly/],
        [{ input: { urn, deprecated: true, extra: 1 } }, /Field "extra" is not defined by type "UpdateDeprecationInput"/],
      ];
      for (const [variables, message] of cases) {
        const body = await gqlError(server, UPDATE, variables, { ...BAD_REQUEST, message });
        assert.equal('data' in body, false);
      }
      const batch = 'mutation b($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';
      await gqlError(
        server,
        batch,
        { input: { deprecated: true, resources: [{ resourceUrn: urn, subResourceType: 'COLUMN', subResource: 'x' }] } },
        {
          ...BAD_REQUEST,
          message: /Value "COLUMN" does not exist in "SubResourceType" enum/,
        },
      );
      await gqlError(
        server,
        batch,
        { input: { deprecated: true } },
        { ...BAD_REQUEST, message: /Field "resources" of required type "\[ResourceRefInput\]!" was not provided/ },
      );
      await assertUnchanged(urn);
    });

    it('accepts a Long as a number or a numeric string', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      await gqlData(server, UPDATE, { input: { urn, deprecated: true, decommissionTime: '1767225600000' } });
      await gqlData(server, `mutation { updateDeprecation(input: {urn: "${urn}", deprecated: true, decommissionTime: 1767225600001}) }`);
      const data = await gqlData(server, 'query r($urn: String!) { dataset(urn: $urn) { deprecation { decommissionTime } } }', { urn });
      assert.equal(data.dataset.deprecation.decommissionTime, 1767225600001);
    });

    it('runs the operation named by operationName', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const doc = `query read($urn: String!) { dataset(urn: $urn) { urn } } mutation write($urn: String!) { updateDeprecation(input: {urn: $urn, deprecated: true}) }`;
      assert.deepEqual(await gqlData(server, doc, { urn }, { operationName: 'read' }), { dataset: { urn } });
      await assertUnchanged(urn);
      await gqlError(server, doc, { urn }, { ...BAD_REQUEST, message: 'Must provide operation name if query contains multiple operations.' });
      assert.deepEqual(await gqlData(server, doc, { urn }, { operationName: 'write' }), { updateDeprecation: true });
    });

    it('masks unexpected failures as "An unknown error occurred." with SERVER_ERROR', async () => {
      const urn = datasetUrn();
      // A schema field type DataHub's GraphQL cannot map (its mapper throws the same way).
      await ingest(
        server,
        mcp(urn, 'schemaMetadata', {
          schemaName: 't',
          platform: 'urn:li:dataPlatform:hive',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [{ fieldPath: 'x', type: { type: { 'com.example.WeirdType': {} } }, nativeDataType: '?' }],
        }),
      );
      const body = await gqlError(
        server,
        'query r($urn: String!) { dataset(urn: $urn) { urn schemaMetadata { fields { fieldPath type } } } }',
        { urn },
        {
          code: 500,
          type: 'SERVER_ERROR',
          message: 'An unknown error occurred.',
        },
      );
      assert.deepEqual(body.errors[0].path, ['dataset', 'schemaMetadata', 'fields', 0, 'type']);
      assert.deepEqual(body.data, { dataset: { urn, schemaMetadata: null } });
    });

    it('runs a request whose non-null variable is left out but has a default', async () => {
      const doc =
        'query q($hide: Boolean! = false, $urn: String! = "urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)") { __typename @skip(if: $hide) dataset(urn: $urn) { urn } }';
      assert.deepEqual(await gqlData(server, doc, {}), { __typename: 'Query', dataset: null });
      assert.deepEqual(await gqlData(server, doc, { hide: true }), { dataset: null });
    });

    it('answers an explicit null for a non-null argument whose variable has a default as BAD_REQUEST', async () => {
      const body = await gqlError(
        server,
        'query q($urn: String = "urn:li:corpuser:x") { dataset(urn: $urn) { urn } }',
        { urn: null },
        {
          ...BAD_REQUEST,
          message: 'Argument "urn" of non-null type "String!" must not be null.',
        },
      );
      assert.deepEqual(body.data, { dataset: null });
    });

    it('locates a Long literal it cannot represent', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      for (const literal of ['99999999999999999999', '"abc"', '1.5']) {
        const body = await gqlError(
          server,
          `mutation { updateDeprecation(input: {urn: "${urn}", deprecated: true, decommissionTime: ${literal}}) }`,
          undefined,
          {
            ...BAD_REQUEST,
            message: /Long cannot represent/,
          },
        );
        assert.equal(body.errors[0].locations?.length, 1, literal);
      }
      await assertUnchanged(urn);
    });

    it("answers introspection, so clients and code generators see the deprecation API with DataHub's fields", async () => {
      const data = await gqlData(server, getIntrospectionQuery());
      const schema = buildClientSchema(data as IntrospectionQuery);
      const fields = (type: string) => Object.keys((schema.getType(type) as unknown as { getFields(): object }).getFields());
      assert.deepEqual(fields('Deprecation'), ['deprecated', 'decommissionTime', 'note', 'actor', 'actorEntity', 'replacement']);
      assert.equal(
        String((schema.getType('Deprecation') as unknown as { getFields(): Record<string, { type: unknown }> }).getFields().replacement!.type),
        'Entity',
      );
      assert.deepEqual(fields('UpdateDeprecationInput'), [
        'urn',
        'subResourceType',
        'subResource',
        'deprecated',
        'decommissionTime',
        'note',
        'replacement',
      ]);
      assert.deepEqual(fields('BatchUpdateDeprecationInput'), ['deprecated', 'decommissionTime', 'note', 'resources', 'replacement']);
      assert.deepEqual(fields('ResourceRefInput'), ['resourceUrn', 'subResourceType', 'subResource']);
      assert.equal(printType(schema.getType('SubResourceType')!), 'enum SubResourceType {\n  DATASET_FIELD\n}');
      assert.ok(schema.getType('Long'));
      for (const f of [
        'urn',
        'type',
        'name',
        'platform',
        'exists',
        'status',
        'properties',
        'deprecation',
        'deprecationHistory',
        'schemaMetadata',
        'datasetProfiles',
      ]) {
        assert.ok(fields('Dataset').includes(f), f);
      }
      const mutation = schema.getMutationType()!.getFields();
      assert.equal(String(mutation.updateDeprecation!.type), 'Boolean');
      assert.equal(String(mutation.updateDeprecation!.args[0]!.type), 'UpdateDeprecationInput!');
      assert.equal(String(mutation.batchUpdateDeprecation!.args[0]!.type), 'BatchUpdateDeprecationInput!');
      assert.equal(String(schema.getQueryType()!.getFields().dataset!.type), 'Dataset');
      assert.equal(
        String(
          schema.getType('Deprecation') &&
            (schema.getType('Deprecation') as unknown as { getFields(): Record<string, { type: unknown }> }).getFields().deprecated!.type,
        ),
        'Boolean!',
      );
    });

    it('serves GraphiQL without a token, with every asset from this server', async () => {
      const page = await server.request('GET', '/api/graphiql', { auth: null });
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      assert.doesNotMatch(page.text, /https?:\/\//, 'nothing is loaded from another origin');
      assert.match(page.text, /data-endpoint="\/api\/graphql"/);
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.equal(assets.length, 5);
      for (const asset of assets) {
        const res = await server.request('GET', asset, { auth: null });
        assert.equal(res.status, 200, asset);
        assert.match(res.headers.get('content-type') ?? '', asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
        assert.ok(res.text.length > 100, asset);
      }
      const init = await server.request('GET', '/api/graphiql/assets/init.js', { auth: null });
      assert.match(init.text, /GraphiQL\.createFetcher/);
      const proxied = await server.request('GET', '/api/gms/api/graphiql', { auth: null });
      assert.match(proxied.text, /data-endpoint="\/api\/gms\/api\/graphql"/);
      assert.equal((await server.request('GET', '/api/graphiql/assets/..%2Fpackage.json', { auth: null })).status, 404);
    });
  });
}

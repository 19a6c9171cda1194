import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, ingest, mcp } from '../support/graphql.ts';
import { patchMcp } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

let counter = 0;
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,structured.values,PROD)';

/** A property definition as the SDK's StructuredPropertyDefinitionClass serializes it. */
const definition = (valueType: string, cardinality: 'SINGLE' | 'MULTIPLE', allowed?: unknown[]) => ({
  qualifiedName: `io.acryl.test.p${counter}`,
  valueType: `urn:li:dataType:datahub.${valueType}`,
  cardinality,
  entityTypes: ['urn:li:entityType:datahub.dataset'],
  ...(allowed ? { allowedValues: allowed.map((value) => ({ value })) } : {}),
});

for (const backend of await backends()) {
  describe(`Structured property values checked against their definitions on ingest: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await createDataset(server, DATASET);
    });

    const property = async (valueType: string, cardinality: 'SINGLE' | 'MULTIPLE' = 'SINGLE', allowed?: unknown[]) => {
      const urn = `urn:li:structuredProperty:io.acryl.test.p${++counter}`;
      await ingest(server, mcp(urn, 'propertyDefinition', definition(valueType, cardinality, allowed), 'structuredProperty'));
      return urn;
    };
    const assign = (propertyUrn: string, values: unknown[]) =>
      server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(DATASET, 'structuredProperties', { properties: [{ propertyUrn, values }] }) },
      });
    const refused = async (propertyUrn: string, values: unknown[], problem: string) => {
      const res = await assign(propertyUrn, values);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.message, `ValidationExceptionCollection{EntityAspect:(${DATASET},structuredProperties) Exceptions: [${problem}]}`);
    };

    it('stores values of the right type, count and choice', async () => {
      const retention = await property('string');
      assert.equal((await assign(retention, [{ string: '30d' }])).status, 200);
      const versions = await property('number', 'MULTIPLE');
      assert.equal((await assign(versions, [{ double: 1 }, { double: 2 }])).status, 200);
      assert.deepEqual(await restliAspect(server, DATASET, 'structuredProperties'), {
        properties: [{ propertyUrn: versions, values: [{ double: 1 }, { double: 2 }] }],
      });
    });

    it("refuses a definition change that breaks the values already assigned, with DataHub's messages", async () => {
      const urn = await property('string', 'MULTIPLE', [{ string: 'foo' }, { string: 'bar' }]);
      const redefine = (valueType: string, cardinality: 'SINGLE' | 'MULTIPLE', allowed?: unknown[]) =>
        server.request('POST', '/aspects?action=ingestProposal', {
          body: {
            proposal: mcp(
              urn,
              'propertyDefinition',
              { ...definition(valueType, cardinality, allowed), qualifiedName: urn.slice(26) },
              'structuredProperty',
            ),
          },
        });
      const refusedWith = async (res: Awaited<ReturnType<typeof redefine>>, problems: string) => {
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.message, `ValidationExceptionCollection{EntityAspect:(${urn},propertyDefinition) Exceptions: [${problems}]}`);
      };
      await refusedWith(
        await redefine('string', 'SINGLE', [{ string: 'foo' }, { string: 'bar' }]),
        'Property definition cardinality cannot be changed from MULTI to SINGLE',
      );
      await refusedWith(
        await redefine('number', 'MULTIPLE', [{ string: 'foo' }, { string: 'bar' }]),
        'Value type cannot be changed as this is a backwards incompatible change',
      );
      await refusedWith(await redefine('string', 'MULTIPLE', [{ string: 'foo' }]), 'Cannot restrict values that were previously allowed');
      assert.equal((await redefine('string', 'MULTIPLE', [{ string: 'foo' }, { string: 'bar' }, { string: 'baz' }])).status, 200);
    });

    it("refuses a value of the wrong type, too many values and a value not allowed, with DataHub's messages, storing nothing", async () => {
      const before = await restliAspect(server, DATASET, 'structuredProperties');
      const text = await property('string');
      await refused(text, [{ double: 200030 }], `Property: ${text}, value: {double=200030.0} should be a string`);
      const number = await property('number');
      await refused(number, [{ string: '30 days' }], `Property: ${number}, value: {string=30 days} should be a number`);
      await refused(
        number,
        [{ double: 1 }, { double: 2 }],
        `Property: ${number} has cardinality 1, but multiple values were assigned: [{double=1.0}, {double=2.0}]`,
      );
      const date = await property('date');
      await refused(date, [{ string: '2020-13-01' }], `Property: ${date}, value: {string=2020-13-01} should be a date with format YYYY-MM-DD`);
      const choice = await property('string', 'MULTIPLE', [{ string: 'foo' }, { string: 'bar' }]);
      await refused(
        choice,
        [{ string: 'foo' }, { string: 'baz' }],
        `Property: ${choice}, value: {string=baz} should be one of [{string=foo}, {string=bar}]`,
      );
      const missing = 'urn:li:structuredProperty:io.acryl.test.nothing';
      await refused(missing, [{ string: 'x' }], `Unexpected null value found for ${missing} Structured Property Definition.`);
      assert.deepEqual(await restliAspect(server, DATASET, 'structuredProperties'), before);
    });

    it('checks the values a PATCH sets, as DataHub checks the patched aspect, leaving the others alone', async () => {
      const choice = await property('string', 'SINGLE', [{ string: 'gold' }, { string: 'silver' }]);
      const set = (values: unknown[]) =>
        server.request('POST', '/aspects?action=ingestProposal', {
          body: {
            proposal: patchMcp(DATASET, 'structuredProperties', [
              { op: 'add', path: `/properties/${choice}`, value: { propertyUrn: choice, values } },
            ]),
          },
        });
      assert.equal((await set([{ string: 'gold' }])).status, 200);
      const before = await restliAspect(server, DATASET, 'structuredProperties');
      const res = await set([{ string: 'bronze' }]);
      assert.equal(res.status, 400, res.text);
      assert.equal(
        res.json.message,
        `ValidationExceptionCollection{EntityAspect:(${DATASET},structuredProperties) Exceptions: [Property: ${choice}, value: {string=bronze} should be one of [{string=gold}, {string=silver}]]}`,
      );
      const many = await set([{ string: 'gold' }, { string: 'silver' }]);
      assert.equal(many.status, 400, many.text);
      assert.match(many.json.message, /has cardinality 1, but multiple values were assigned/);
      const openapi = await server.request('PATCH', '/openapi/v3/entity/dataset?async=false', {
        body: [
          {
            urn: DATASET,
            structuredProperties: {
              value: { patch: [{ op: 'add', path: `/properties/${choice}`, value: { propertyUrn: choice, values: [{ string: 'bronze' }] } }] },
            },
          },
        ],
      });
      assert.equal(openapi.status, 400, openapi.text);
      assert.match(openapi.text, /value: \{string=bronze\} should be one of/);
      assert.deepEqual(await restliAspect(server, DATASET, 'structuredProperties'), before);
    });
  });
}

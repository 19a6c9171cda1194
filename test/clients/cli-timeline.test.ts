import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, datahubCli, runDatahubCli, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const URN = datasetUrn('sdk.timeline_orders');

/* eslint-disable @typescript-eslint/no-explicit-any */
for (const backend of await clientBackends()) {
  describe(`DataHub timeline through the real client: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_timeline.py', () => ({ urn: URN }));

    it('prints the added and removed fields of two schema versions, with the major version bump, from `datahub timeline`', async () => {
      const out = (await runDatahubCli(run.server, 'timeline', '--urn', URN, '--category', 'TECHNICAL_SCHEMA')).stdout;
      const lines = out.split('\n').filter((l) => l !== '');
      assert.match(lines[0]!, /\/openapi\/v2\/timeline\/v1\/urn%3Ali%3Adataset%3A.*\?categories=TECHNICAL_SCHEMA$/);
      assert.match(lines[1]!, / - 0\.0\.0-computed$/);
      assert.deepEqual(lines.slice(2, 4), [
        "\tADD TECHNICAL_SCHEMA dataset:hive:sdk.timeline_orders (field:id): A forwards & backwards compatible change due to the newly added field 'id'.",
        "\tADD TECHNICAL_SCHEMA dataset:hive:sdk.timeline_orders (field:name): A forwards & backwards compatible change due to the newly added field 'name'.",
      ]);
      assert.match(lines[4]!, / - 1\.0\.0-computed$/);
      assert.deepEqual(lines.slice(5), [
        "\tADD TECHNICAL_SCHEMA dataset:hive:sdk.timeline_orders (field:email): A forwards & backwards compatible change due to the newly added field 'email'.",
        "\tREMOVE TECHNICAL_SCHEMA dataset:hive:sdk.timeline_orders (field:name): A backwards incompatible change due to removal of field: 'name'.",
      ]);
    });

    it('answers the CLI function with the raw diff of each version', () => {
      const schema = run.result.schema as any[];
      assert.deepEqual(
        schema.map((t) => [t.semVer, t.semVerChange]),
        [
          ['0.0.0-computed', 'MINOR'],
          ['1.0.0-computed', 'MAJOR'],
        ],
      );
      assert.ok(
        schema[1].rawDiff.some((op: any) => op.path.startsWith('/fields/')),
        JSON.stringify(schema[1].rawDiff),
      );
    });

    it('shows a deprecation under DEPRECATION', () => {
      const txns = run.result.deprecation as any[];
      assert.equal(txns.length, 1, JSON.stringify(txns));
      assert.deepEqual(
        txns[0].changeEvents.map((e: any) => [e.category, e.operation, e.parameters]),
        [['DEPRECATION', 'MODIFY', { status: 'DEPRECATED', timestamp: '1800000000000', note: 'use orders_v2' }]],
      );
    });

    it('exits 2 with a usage error for a category DataHub does not have, before asking the server', async () => {
      const res = await datahubCli(run.server, 'timeline', '--urn', URN, '--category', 'COLOUR');
      assert.equal(res.code, 2, res.stdout + res.stderr);
      assert.match(res.stderr, /category: COLOUR is not one of/);
    });

    it('shows the 400 naming a category the CLI knows but the server does not answer', async () => {
      const res = await runDatahubCli(run.server, 'timeline', '--urn', URN, '--category', 'VERSIONING');
      assert.match(res.stdout, /"status": 400/);
      assert.match(res.stdout, /Unknown categories: VERSIONING/);
    });
  });
}

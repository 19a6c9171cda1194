import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

const hiveUrn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,reads.t${String(i).padStart(4, '0')},PROD)`;
const HIVE = Array.from({ length: 1000 }, (_, i) => hiveUrn(i));
const OTHERS = Array.from({ length: 20 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:mysql,reads.m${String(i).padStart(2, '0')},PROD)`);

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK entity reads over OpenAPI: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_entity_reads.py', () => ({ hive: HIVE, others: OTHERS }));

    it('scroll_entities pages through 1,000 datasets with a platform filter, following scroll ids', () => {
      const { scroll } = run.result;
      assert.equal(scroll.namesMatch, true, 'each page carries the datasetProperties asked for');
      assert.deepEqual(scroll.urns, [...HIVE].sort(), 'every hive dataset once, in urn order, none of the others');
      assert.equal(scroll.pages, 10);
      assert.deepEqual(scroll.totals, [1000]);
    });

    it('scroll_entities without aspects answers urns alone, in the sort asked for', () => {
      assert.deepEqual(run.result.urnsOnly.urns, [...HIVE, ...OTHERS].sort().reverse().slice(0, 5));
      assert.deepEqual(run.result.urnsOnly.aspects, [0, 0, 0, 0, 0]);
    });

    it('get_entities (v3 batchGet) and get_entities_v2 (v2 batch) read the asked aspects of the entities that exist', () => {
      assert.deepEqual(run.result.batchGet, {
        [HIVE[0]!]: { name: 'reads.t0000', runId: 'no-run-id-provided' },
        [OTHERS[0]!]: { name: 'reads.m00', runId: 'no-run-id-provided' },
      });
      assert.deepEqual(run.result.batchV2, { [HIVE[0]!]: 'reads.t0000', [OTHERS[0]!]: 'reads.m00' });
    });
  });
}

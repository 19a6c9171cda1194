import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const U = {
  t1: datasetUrn('sdk.lin_t1'),
  t2: datasetUrn('sdk.lin_t2'),
  t3: datasetUrn('sdk.lin_t3'),
  t4: datasetUrn('sdk.lin_t4'),
  branch: datasetUrn('sdk.lin_branch'),
};

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK lineage search over GraphQL: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_lineage_search.py', () => U);

    it('searchAcrossLineage walks three hops downstream, nearest first, with degrees and paths from the start', () => {
      assert.deepEqual(run.result.downstreamAll, {
        total: 4,
        results: [
          [U.t2, 'DATASET', 1, [1], [[U.t1, U.t2]]],
          [U.branch, 'DATASET', 2, [2], [[U.t1, U.t2, U.branch]]],
          [U.t3, 'DATASET', 2, [2], [[U.t1, U.t2, U.t3]]],
          [U.t4, 'DATASET', 3, [3], [[U.t1, U.t2, U.t3, U.t4]]],
        ].sort((a, b) => (a[2] as number) - (b[2] as number) || String(a[0]).localeCompare(String(b[0]))),
      });
    });

    it('a degree filter of 1 stops the walk at the first hop', () => {
      assert.deepEqual(run.result.downstreamFirst, { total: 1, results: [[U.t2, 'DATASET', 1, [1], [[U.t1, U.t2]]]] });
    });

    it('a cycle ends: upstream of t1 is t4, t3, t2 once each, never t1 itself', () => {
      assert.deepEqual(
        run.result.upstreamAll.results.map((r: unknown[]) => [r[0], r[2]]),
        [
          [U.t4, 1],
          [U.t3, 2],
          [U.t2, 3],
        ],
      );
    });

    it('pages by start', () => {
      assert.equal(run.result.secondPage.total, 4);
      assert.deepEqual(
        run.result.secondPage.results.map((r: unknown[]) => r[0]),
        [U.t4],
      );
    });
  });
}

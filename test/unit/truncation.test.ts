import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dryRunMessage, javaTwoDecimals, resolveTimeseriesIndex, timeseriesIndexName, truncationStrategy } from '../../src/catalog/truncation.ts';
import { formatTaskId, parseTaskId } from '../../src/catalog/task-id.ts';

describe('truncation rules', () => {
  it("prints percentages as Java's %.2f does, rounding the shortest decimal half up", () => {
    const cases: Array<[number, string]> = [
      [0, '0.00'],
      [(10 / 30) * 100, '33.33'],
      [(20 / 30) * 100, '66.67'],
      [100, '100.00'],
      [1.005, '1.01'],
      [0.005, '0.01'],
      [0.0049, '0.00'],
      [1e-7, '0.00'],
      [12.5, '12.50'],
      [99.995, '100.00'],
      [(1 / 3) * 100, '33.33'],
    ];
    for (const [x, text] of cases) assert.equal(javaTwoDecimals(x), text, String(x));
  });

  it("words the dry run exactly as DataHub's garbage collector parses it", () => {
    const message = dryRunMessage({ matching: 10, total: 30 }, 'delete_by_query');
    assert.equal(
      message,
      'Delete 10 out of 30 rows (33.33%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
    );
    const numbers = [...message.matchAll(/\d+/g)].slice(0, 2).map((m) => Number(m[0]));
    assert.deepEqual(numbers, [10, 30]);
    assert.equal(
      dryRunMessage({ matching: 0, total: 0 }, 'rebuild'),
      'Delete 0 out of 0 rows (0.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
    );
  });

  it('rebuilds unless delete by query is forced, and refuses flags that agree', () => {
    assert.equal(truncationStrategy({}), 'rebuild');
    assert.equal(truncationStrategy({ forceReindex: true }), 'rebuild');
    assert.equal(truncationStrategy({ forceReindex: false }), 'rebuild');
    assert.equal(truncationStrategy({ forceDeleteByQuery: true }), 'delete_by_query');
    assert.equal(truncationStrategy({ forceDeleteByQuery: true, forceReindex: false }), 'delete_by_query');
    assert.equal(truncationStrategy({ forceDeleteByQuery: false }), 'rebuild');
    assert.equal(truncationStrategy({ forceDeleteByQuery: true, forceReindex: true }), 'conflict');
    assert.equal(truncationStrategy({ forceDeleteByQuery: false, forceReindex: false }), 'conflict');
  });

  it('names indices as DataHub does and resolves them in any case', () => {
    assert.deepEqual(resolveTimeseriesIndex('DataSet', 'DATASETUSAGESTATISTICS'), { entityType: 'dataset', aspect: 'datasetUsageStatistics' });
    assert.equal(timeseriesIndexName({ entityType: 'dataset', aspect: 'datasetUsageStatistics' }), 'dataset_datasetusagestatisticsaspect_v1');
    assert.throws(() => resolveTimeseriesIndex('dataset', 'ownership'), /Parameter 'aspect'/);
  });

  it('parses task ids of the form nodeId:number with a non-zero number', () => {
    assert.deepEqual(parseTaskId('aB1cdEf2GHIJKLMnoPQr3S:123456'), { nodeId: 'aB1cdEf2GHIJKLMnoPQr3S', number: 123456 });
    assert.deepEqual(parseTaskId('-_x:7'), { nodeId: '-_x', number: 7 });
    for (const bad of ['abc', 'abc:0', 'abc:', ':1', 'a:b:1', 'a b:1', 'abc:99999999999999999999']) assert.equal(parseTaskId(bad), undefined, bad);
    assert.equal(formatTaskId({ nodeId: 'n', number: 3 }), 'n:3');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,reads.partitioned,PROD)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(datahub,my_pipeline,prod),hive_stale_entity_removal)';
const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

/** DataHub's Filter as DataHubGraph builds it from filter_criteria_map. */
const filterOf = (criteria: Record<string, string>, condition = 'EQUAL') => ({
  or: [{ and: Object.entries(criteria).map(([field, value]) => ({ field, values: [value], condition })) }],
});

for (const backend of await backends()) {
  describe(`getTimeseriesAspectValues as DataHub filters it: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      const profiles = [0, 1, 2, 3].flatMap((d) =>
        ['p=1', 'p=2'].map((partition, i) =>
          mcp(URN, 'datasetProfile', { timestampMillis: T0 + d * DAY + i, rowCount: d * 10 + i, partitionSpec: { partition, type: 'PARTITION' } }),
        ),
      );
      await ingest(server, ...profiles);
    });
    const read = (body: Record<string, unknown>): Promise<HttpResult> =>
      server.request('POST', '/aspects?action=getTimeseriesAspectValues', { body });
    const rowCounts = (res: HttpResult) => res.json.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).rowCount);

    it("returns the latest value of one partition, as get_latest_timeseries_value's filter asks", async () => {
      const res = await read({
        urn: URN,
        entity: 'dataset',
        aspect: 'datasetProfile',
        limit: 1,
        filter: filterOf({ 'partitionSpec.partition': 'p=1' }),
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(rowCounts(res), [30]);
      const all = await read({ urn: URN, entity: 'dataset', aspect: 'datasetProfile', filter: filterOf({ 'partitionSpec.partition': 'p=2' }) });
      assert.deepEqual(rowCounts(all), [31, 21, 11, 1]);
    });

    it('combines conditions, negation, a time window and ORs of ANDs', async () => {
      const filter = {
        or: [
          {
            and: [
              { field: 'rowCount', values: ['10'], condition: 'GREATER_THAN' },
              { field: 'partitionSpec.partition', values: ['p=1'], negated: true },
            ],
          },
          { and: [{ field: 'rowCount', values: ['0'], condition: 'EQUAL' }] },
        ],
      };
      const res = await read({ urn: URN, entity: 'dataset', aspect: 'datasetProfile', filter, endTimeMillis: T0 + 2 * DAY + 10 });
      assert.deepEqual(rowCounts(res), [21, 11, 0]);
    });

    it('reads the checkpoint stateful ingestion asks for by pipeline name', async () => {
      const checkpoint = (pipelineName: string, t: number) =>
        mcp(
          JOB,
          'datahubIngestionCheckpoint',
          {
            timestampMillis: t,
            pipelineName,
            platformInstanceId: '',
            config: '',
            state: { formatVersion: '1.0', serde: 'utf-8' },
            runId: `run-${t}`,
          },
          'dataJob',
        );
      await ingest(server, checkpoint('my_pipeline', T0), checkpoint('my_pipeline', T0 + 1000), checkpoint('other', T0 + 2000));
      const res = await read({
        urn: JOB,
        entity: 'dataJob',
        aspect: 'datahubIngestionCheckpoint',
        limit: 1,
        filter: filterOf({ pipelineName: 'my_pipeline' }),
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.json.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).runId),
        [`run-${T0 + 1000}`],
      );
    });

    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'a condition it cannot apply',
        { filter: filterOf({ rowCount: '1' }, 'DESCENDANTS_INCL') },
        /'filter.or\[0\].and\[0\].condition' "DESCENDANTS_INCL" is not supported/,
      ],
      ['a filter key it does not know', { filter: { any: [] } }, /Parameter 'filter.any' is not supported/],
      ['an oldest-first sort', { sort: { field: 'timestampMillis', order: 'ASCENDING' } }, /Parameter 'sort' .* is not supported/],
      ['a limit over 10,000', { limit: 10_001 }, /'limit' must be at most 10000/],
    ];
    for (const [what, extra, message] of refused) {
      it(`refuses ${what} with 400 instead of ignoring it`, async () => {
        const res = await read({ urn: URN, entity: 'dataset', aspect: 'datasetProfile', ...extra });
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      });
    }
  });
}

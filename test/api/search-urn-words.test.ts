import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const SEARCH = `query s($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn } } }
}`;

const RUN = 'urn:li:dataProcessInstance:test-pipeline-run-4242';
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const LEDGER = ds('finance.ledger');
const LEDGER_COPY = ds('finance.ledger_backup');

const found = async (server: TestServer, query: string, types?: string[]) => {
  const data = await gqlData(server, SEARCH, { input: { query, start: 0, count: 10, ...(types ? { types } : {}) } });
  return data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn) as string[];
};

for (const backend of await backends()) {
  describe(`the urn's words in the search index over ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp(
          RUN,
          'dataProcessInstanceProperties',
          { name: 'nightly load', created: { time: 1767225600000, actor: 'urn:li:corpuser:etl' } },
          'dataProcessInstance',
        ),
        mcp(LEDGER, 'datasetProperties', { name: 'ledger' }),
        // Named otherwise: only its urn holds the word ledger.
        mcp(LEDGER_COPY, 'datasetProperties', { name: 'nightly copy' }),
      );
    });

    it('finds a process instance by the id inside its urn, as DataHub’s data_process_instance smoke test searches', async () => {
      assert.deepEqual(await found(server, 'test-pipeline-run-4242', ['DATA_PROCESS_INSTANCE']), [RUN]);
    });

    it('keeps an exact name match above a match in the urn only, and does not index the urn prefix words', async () => {
      assert.deepEqual(await found(server, 'ledger', ['DATASET']), [LEDGER, LEDGER_COPY]);
      assert.deepEqual(await found(server, 'li', ['DATA_PROCESS_INSTANCE']), []);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, datahubCli, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},cli.${name},${env})`;
const ORDERS = ds('hive', 'orders');
const SALES = ds('hive', 'sales_orders');
const DAILY = ds('snowflake', 'orders_daily');
const DEV = ds('snowflake', 'orders_dev', 'DEV');
const USERS = ds('snowflake', 'users');
const PII = 'urn:li:tag:pii';
const RUNBOOK = 'urn:li:document:runbook';

for (const backend of await clientBackends()) {
  describe(`\`datahub search\` and \`datahub delete --query\`: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        ...[ORDERS, SALES, DAILY, DEV, USERS].map((urn) =>
          mcp(urn, 'datasetProperties', { name: urn.split(',')[1]!.replace('cli.', ''), description: 'CLI corpus', customProperties: {} }),
        ),
        mcp(PII, 'tagProperties', { name: 'pii' }, 'tag'),
        mcp(USERS, 'globalTags', { tags: [{ tag: PII }] }),
        mcp(RUNBOOK, 'documentInfo', { title: 'Incident runbook', contents: { text: 'What to do' } }, 'document'),
      );
    });
    const search = async (...args: string[]) => (await runDatahubCli(server, 'search', ...args)).stdout;
    const json = async (...args: string[]) => JSON.parse(await search(...args, '--format', 'json'));
    const urnsOf = (out: { searchResults: { entity: { urn: string } }[] }) => out.searchResults.map((r) => r.entity.urn);

    it('ranks a query: an exact name first, then the names that contain the word', async () => {
      const lines = (await search('orders', '--urns-only')).trim().split('\n');
      assert.equal(lines[0], ORDERS);
      assert.deepEqual([...lines].sort(), [ORDERS, SALES, DAILY, DEV].sort());
    });

    it('answers JSON with the total, narrowed by --filter (AND across fields, comma for OR)', async () => {
      const out = await json('orders', '--filter', 'platform=snowflake', '--filter', 'entity_type=dataset');
      assert.equal(out.total, 2);
      assert.deepEqual(urnsOf(out).sort(), [DAILY, DEV].sort());
      const either = await json('*', '--filter', 'platform=snowflake,hive', '--filter', 'env=DEV');
      assert.deepEqual(urnsOf(either), [DEV]);
    });

    it('reads --where and --filters expressions', async () => {
      assert.deepEqual(
        urnsOf(await json('*', '--where', 'platform = snowflake AND NOT env = DEV AND entity_type = dataset')).sort(),
        [DAILY, USERS].sort(),
      );
      assert.deepEqual(urnsOf(await json('*', '--where', `tag = ${PII}`)), [USERS]);
      const filters = JSON.stringify({ and: [{ platform: ['hive'] }, { entity_type: ['dataset'] }] });
      assert.deepEqual(urnsOf(await json('orders', '--filters', filters)).sort(), [ORDERS, SALES].sort());
    });

    it('pages with --limit and --offset, sorted with --sort-by', async () => {
      const page = (offset: string) =>
        json('*', '--filter', 'entity_type=dataset', '--sort-by', 'name', '--sort-order', 'asc', '--limit', '2', '--offset', offset);
      const first = await page('0');
      const second = await page('2');
      assert.equal(first.total, 5);
      assert.deepEqual([...urnsOf(first), ...urnsOf(second)], [ORDERS, DAILY, DEV, SALES]);
    });

    it('counts facets with --facets-only', async () => {
      const out = await json('*', '--filter', 'entity_type=dataset', '--facets-only');
      const platform = (out.facets as { field: string; aggregations: { value: string; count: number }[] }[]).find((f) => f.field === 'platform');
      assert.ok(platform, JSON.stringify(out));
      assert.deepEqual(
        platform.aggregations.map((a) => [a.value, a.count]),
        [
          ['urn:li:dataPlatform:snowflake', 3],
          ['urn:li:dataPlatform:hive', 2],
        ],
      );
    });

    it("shows what it asks of each type, a document's title included", async () => {
      const out = await json('runbook');
      assert.deepEqual(
        out.searchResults.map((r: { entity: unknown }) => r.entity),
        // Every field the CLI's Document fragment asks for; with no dataPlatformInstance, DataHub's platform for documents.
        [
          {
            urn: RUNBOOK,
            type: 'DOCUMENT',
            subType: null,
            info: { title: 'Incident runbook' },
            platform: { urn: 'urn:li:dataPlatform:datahub', name: 'datahub', properties: null },
            ownership: null,
            tags: null,
            glossaryTerms: null,
            domain: null,
          },
        ],
      );
    });

    it('prints a table', async () => {
      const table = await search('users', '--table');
      assert.match(table, /users/);
      assert.match(table, /snowflake/i);
    });

    it('lists the filters it knows without a server round trip failing', async () => {
      const res = await datahubCli(server, 'search', 'list-filters');
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /platform/);
    });

    it('`datahub delete --query --dry-run` lists what the query matches and changes nothing', async () => {
      const res = await runDatahubCli(server, 'delete', '--entity-type', 'dataset', '--query', 'orders', '--dry-run');
      assert.match(res.stdout, /Found 4 dataset urn\(s\)/);
      assert.match(res.stdout, /\[Dry-run\] Would delete 4 entities/);
      for (const urn of [ORDERS, SALES, DAILY, DEV]) assert.equal((await storedAspect(server, urn, 'status'))?.removed ?? false, false);
      const narrowed = await runDatahubCli(server, 'delete', '--platform', 'snowflake', '--query', 'orders', '--dry-run');
      assert.match(narrowed.stdout, /Found 2 dataset urn\(s\)/);
    });
  });
}

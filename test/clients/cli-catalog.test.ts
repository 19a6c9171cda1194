import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { datasetUrn, storedStamps } from '../support/truncation.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const DEPRECATION = 'query($urn: String!) { dataset(urn: $urn) { deprecation { deprecated note actor } } }';

for (const backend of await clientBackends()) {
  describe(`DataHub CLI catalog commands: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('answers `datahub exists` with true', async () => {
      const urn = datasetUrn('cli.exists');
      await ingest(server, mcp(urn, 'status', { removed: false }));
      assert.equal((await runDatahubCli(server, 'exists', '--urn', urn)).stdout.trim(), 'true');
    });

    it('soft-deletes with `datahub delete --soft`, keeping the aspects', async () => {
      const urn = datasetUrn('cli.soft');
      await ingest(server, mcp(urn, 'status', { removed: false }), mcp(urn, 'datasetProperties', { name: 'soft' }));
      assert.match((await runDatahubCli(server, 'delete', '--urn', urn, '--soft', '--force')).stdout, /Soft deleted 1 entities/);
      assert.deepEqual(await storedAspect(server, urn, 'status'), { removed: true });
      assert.equal((await storedAspect(server, urn, 'datasetProperties'))?.name, 'soft');
    });

    it('hard-deletes with `datahub delete --hard`, removing the entity and its timeseries rows', async () => {
      const urn = datasetUrn('cli.hard');
      await ingest(server, mcp(urn, 'status', { removed: false }), mcp(urn, 'datasetProfile', { timestampMillis: Date.now(), rowCount: 3 }));
      const out = (await runDatahubCli(server, 'delete', '--urn', urn, '--hard', '--force')).stdout;
      assert.match(out, /Hard deleted 1 entities/);
      assert.match(out, /impacts 2 versioned rows and 1 timeseries aspect rows/);
      assert.equal((await server.request('GET', `/entities/${encodeURIComponent(urn)}`)).status, 404);
      assert.deepEqual(await storedStamps(server.request, urn), []);
    });

    it('deletes a time window of one timeseries aspect with `datahub delete --aspect --start-time --end-time --hard`, and nothing else', async () => {
      const urn = datasetUrn('cli.window');
      const other = datasetUrn('cli.window.other');
      const stamps = [0, 1, 2, 3].map((d) => Date.UTC(2026, 0, 10 + d));
      const profiles = (u: string) => stamps.map((t) => mcp(u, 'datasetProfile', { timestampMillis: t, rowCount: 1 }));
      await ingest(
        server,
        mcp(urn, 'status', { removed: false }),
        mcp(urn, 'datasetProperties', { name: 'kept' }),
        ...profiles(urn),
        ...profiles(other),
      );
      const out = (
        await runDatahubCli(
          server,
          'delete',
          '--urn',
          urn,
          '--aspect',
          'datasetProfile',
          '--start-time',
          '2026-01-11 00:00:00',
          '--end-time',
          '2026-01-12 00:00:00',
          '--hard',
          '--force',
        )
      ).stdout;
      assert.match(out, /2 timeseries aspect rows/);
      assert.deepEqual(await storedStamps(server.request, urn), [stamps[0], stamps[3]]);
      assert.deepEqual(await storedStamps(server.request, other), stamps);
      assert.equal((await storedAspect(server, urn, 'datasetProperties'))?.name, 'kept');
    });

    it('deprecates a dataset with `datahub graphql`', async () => {
      const urn = datasetUrn('cli.graphql');
      await ingest(server, mcp(urn, 'status', { removed: false }));
      const mutation = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
      const res = await runDatahubCli(
        server,
        'graphql',
        '--query',
        mutation,
        '--variables',
        JSON.stringify({ input: { urn, deprecated: true, note: 'Gone' } }),
      );
      assert.deepEqual(JSON.parse(res.stdout), { updateDeprecation: true });
      assert.deepEqual((await gqlData(server, DEPRECATION, { urn })).dataset.deprecation, { deprecated: true, note: 'Gone', actor: ADMIN });
    });
  });
}

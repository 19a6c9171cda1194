import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},filters.${name},${env})`;
const KAFKA = [ds('kafka', 'clicks'), ds('kafka', 'views')];
const HIVE = ds('hive', 'users');
const HIVE_DEV = ds('hive', 'users_dev', 'DEV');
const OLD_TAG = 'urn:li:tag:legacy_pii';
const TAG = 'urn:li:tag:pii';

for (const backend of await clientBackends()) {
  describe(`\`datahub delete\` by filter: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    /** Runs `datahub delete ...`; the CLI reports a failing urn in its output and still exits 0, so that is checked too. */
    const del = async (...args: string[]) => {
      const res = await runDatahubCli(server, 'delete', ...args);
      assert.doesNotMatch(res.stdout + res.stderr, /Error processing URN/);
      return res.stdout;
    };
    const removed = async (urn: string) => (await storedAspect(server, urn, 'status'))?.removed === true;
    const exists = async (urn: string) => (await server.request('POST', '/entities?action=exists', { body: { urn } })).json.value as boolean;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        ...[...KAFKA, HIVE, HIVE_DEV].map((urn) => mcp(urn, 'status', { removed: false })),
        mcp(OLD_TAG, 'tagProperties', { name: 'legacy_pii' }, 'tag'),
        mcp(TAG, 'tagProperties', { name: 'pii' }, 'tag'),
        mcp(HIVE, 'globalTags', { tags: [{ tag: OLD_TAG }, { tag: TAG }] }),
      );
    });

    it('lists what --platform would delete with --dry-run, and changes nothing', async () => {
      const out = await del('--platform', 'kafka', '--dry-run');
      assert.match(out, /Found 2 dataset urn\(s\)/);
      assert.match(out, /\[Dry-run\] Would delete 2 entities/);
      for (const urn of KAFKA) assert.equal(await removed(urn), false);
    });

    it('soft-deletes every entity of a platform with --platform, and nothing else', async () => {
      assert.match(await del('--platform', 'kafka', '--force'), /Soft deleted 2 entities/);
      for (const urn of KAFKA) assert.equal(await removed(urn), true);
      assert.equal(await removed(HIVE), false);
    });

    it('narrows by --env and --entity-type', async () => {
      assert.match(await del('--entity-type', 'dataset', '--env', 'DEV', '--force'), /Soft deleted 1 entities/);
      assert.equal(await removed(HIVE_DEV), true);
      assert.equal(await removed(HIVE), false);
    });

    it('hard-deletes the tags a --query matches, removing them from the datasets that carry them', async () => {
      const out = await del('--entity-type', 'tag', '--query', 'legacy', '--hard', '--force');
      assert.match(out, /Hard deleted 1 entities .* and cleaned up 1 referenced entities/);
      assert.equal(await exists(OLD_TAG), false);
      assert.equal(await exists(TAG), true);
      assert.deepEqual(await storedAspect(server, HIVE, 'globalTags'), { tags: [{ tag: TAG }] });
    });

    it('hard-deletes only soft-deleted entities with --only-soft-deleted', async () => {
      assert.match(await del('--entity-type', 'dataset', '--only-soft-deleted', '--hard', '--force'), /Hard deleted 3 entities/);
      for (const urn of [...KAFKA, HIVE_DEV]) assert.equal(await exists(urn), false, urn);
      assert.equal(await exists(HIVE), true);
    });

    it('finds nothing to delete when no entity matches', async () => {
      assert.match(await del('--platform', 'kafka', '--force'), /Found no urns to delete/);
    });
  });
}

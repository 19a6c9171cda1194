import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccessTokenRecord, Store } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const token = (id: string, ownerUrn: string, expiresAt: number | null, createdAt = 1): AccessTokenRecord => ({
  id,
  name: id,
  description: null,
  actorUrn: ownerUrn,
  ownerUrn,
  createdAt,
  expiresAt,
});

for (const backend of await backends()) {
  describe(`identity storage conformance: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    it('lists tokens newest expiry first, never-expiring first of all, filtered by owner and paged', async () => {
      await store.identity.insertAccessToken(token('a', 'urn:li:corpuser:x', 100));
      await store.identity.insertAccessToken(token('b', 'urn:li:corpuser:x', null));
      await store.identity.insertAccessToken(token('c', 'urn:li:corpuser:y', 300));
      await store.identity.insertAccessToken(token('d', 'urn:li:corpuser:x', 200));
      const all = await store.identity.listAccessTokens({}, 0, 10);
      assert.equal(all.total, 4);
      assert.deepEqual(
        all.tokens.map((t) => t.id),
        ['b', 'c', 'd', 'a'],
      );
      const mine = await store.identity.listAccessTokens({ ownerUrn: 'urn:li:corpuser:x' }, 1, 1);
      assert.equal(mine.total, 3);
      assert.deepEqual(
        mine.tokens.map((t) => t.id),
        ['d'],
      );
    });

    it('filters tokens by actor and by an expiry range; a token without expiry is in no range', async () => {
      const ids = async (filter: Parameters<Store['identity']['listAccessTokens']>[0]) =>
        (await store.identity.listAccessTokens(filter, 0, 10)).tokens.map((t) => t.id);
      assert.deepEqual(await ids({ expiresAtBefore: 200 }), ['a']);
      assert.deepEqual(await ids({ expiresAtFrom: 200 }), ['c', 'd']);
      assert.deepEqual(await ids({ expiresAtFrom: 100, expiresAtBefore: 201, ownerUrn: 'urn:li:corpuser:x' }), ['d', 'a']);
      assert.deepEqual(await ids({ actorUrn: 'urn:li:corpuser:y' }), ['c']);
      assert.equal((await store.identity.listAccessTokens({ expiresAtBefore: 1000 }, 0, 1)).total, 3);
    });

    it('deletes expired tokens only', async () => {
      assert.equal(await store.identity.deleteExpiredAccessTokens(200), 2);
      assert.deepEqual(
        (await store.identity.listAccessTokens({}, 0, 10)).tokens.map((t) => t.id),
        ['b', 'c'],
      );
    });

    it('assigns, replaces and removes roles', async () => {
      const actors = ['urn:li:corpuser:x', 'urn:li:corpuser:y'];
      await store.identity.setRole(actors, 'urn:li:dataHubRole:Editor', 'urn:li:corpuser:datahub', 1);
      assert.equal(await store.identity.getRole('urn:li:corpuser:y'), 'urn:li:dataHubRole:Editor');
      await store.identity.setRole(['urn:li:corpuser:y'], 'urn:li:dataHubRole:Reader', 'urn:li:corpuser:datahub', 2);
      assert.equal(await store.identity.getRole('urn:li:corpuser:y'), 'urn:li:dataHubRole:Reader');
      await store.identity.setRole(actors, null, 'urn:li:corpuser:datahub', 3);
      assert.equal(await store.identity.getRole('urn:li:corpuser:x'), undefined);
    });

    it('keeps one password hash per user', async () => {
      assert.equal(await store.identity.getPasswordHash('urn:li:corpuser:x'), undefined);
      await store.identity.setPasswordHash('urn:li:corpuser:x', 'h1', 1);
      await store.identity.setPasswordHash('urn:li:corpuser:x', 'h2', 2);
      assert.equal(await store.identity.getPasswordHash('urn:li:corpuser:x'), 'h2');
    });
  });
}

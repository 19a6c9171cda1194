import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const USER = 'urn:li:corpuser:ua-alice';

for (const backend of await backends()) {
  describe(`user access storage conformance: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    const writeUser = (urn: string, status?: string) =>
      store.aspects.write({
        ops: [
          {
            kind: 'aspect',
            entityType: 'corpuser',
            urn,
            aspect: 'corpUserKey',
            value: { username: urn.slice(16) },
            systemMetadata: null,
            onlyIfAbsent: true,
          },
          ...(status
            ? [{ kind: 'aspect' as const, entityType: 'corpuser', urn, aspect: 'corpUserStatus', value: { status }, systemMetadata: null }]
            : []),
        ],
        actor: USER,
        now: 1,
      });

    it('reads existence, suspension and the session epoch of a user in one call', async () => {
      assert.deepEqual(await store.userAccess.getSessionState(USER), { exists: false, inactive: false, sessionEpoch: 0 });
      await writeUser(USER, 'ACTIVE');
      assert.deepEqual(await store.userAccess.getSessionState(USER), { exists: true, inactive: false, sessionEpoch: 0 });
      await writeUser(USER, 'SUSPENDED');
      assert.deepEqual(await store.userAccess.getSessionState(USER), { exists: true, inactive: true, sessionEpoch: 0 });
      await writeUser(USER, 'ACTIVE');
      assert.equal((await store.userAccess.getSessionState(USER)).inactive, false);
    });

    it('counts a soft-deleted user as inactive, and a restored one as active', async () => {
      const carl = 'urn:li:corpuser:ua-carl';
      const setRemoved = (removed: boolean) =>
        store.aspects.write({
          ops: [{ kind: 'aspect', entityType: 'corpuser', urn: carl, aspect: 'status', value: { removed }, systemMetadata: null }],
          actor: USER,
          now: 2,
        });
      await setRemoved(true);
      await store.identity.insertAccessToken({
        id: 'ua-c',
        name: 'c',
        description: null,
        actorUrn: carl,
        ownerUrn: carl,
        createdAt: 1,
        expiresAt: null,
      });
      assert.equal((await store.userAccess.getSessionState(carl)).inactive, true);
      assert.equal((await store.identity.findTokenWithActor('ua-c'))?.actorInactive, true);
      await setRemoved(false);
      assert.equal((await store.userAccess.getSessionState(carl)).inactive, false);
      assert.equal((await store.identity.findTokenWithActor('ua-c'))?.actorInactive, false);
    });

    it('raises the epoch when sessions end and when the password is reset', async () => {
      await store.userAccess.endSessions(USER);
      assert.equal((await store.userAccess.getSessionState(USER)).sessionEpoch, 1);
      await store.userAccess.resetPassword(USER, 'hash-1', 5);
      assert.equal((await store.userAccess.getSessionState(USER)).sessionEpoch, 2);
      assert.equal(await store.identity.getPasswordHash(USER), 'hash-1');
    });

    it('raises the epoch when the user is deleted, and the re-created user starts from it', async () => {
      const before = (await store.userAccess.getSessionState(USER)).sessionEpoch;
      await store.aspects.deleteEntity(USER, { revokeIdentity: true });
      assert.deepEqual(await store.userAccess.getSessionState(USER), { exists: false, inactive: false, sessionEpoch: before + 1 });
      assert.equal(await store.identity.getPasswordHash(USER), undefined);
      await writeUser(USER);
      assert.deepEqual(await store.userAccess.getSessionState(USER), { exists: true, inactive: false, sessionEpoch: before + 1 });
    });

    it('reports a suspended actor with its token', async () => {
      const bob = 'urn:li:corpuser:ua-bob';
      await writeUser(bob, 'SUSPENDED');
      await store.identity.insertAccessToken({
        id: 'ua-t',
        name: 't',
        description: null,
        actorUrn: bob,
        ownerUrn: bob,
        createdAt: 1,
        expiresAt: null,
      });
      assert.deepEqual(await store.identity.findTokenWithActor('ua-t').then((f) => f && { exists: f.actorExists, inactive: f.actorInactive }), {
        exists: true,
        inactive: true,
      });
    });

    it('keeps one invite per role, replaced in place', async () => {
      assert.equal(await store.userAccess.getInvite('urn:li:dataHubRole:Reader'), undefined);
      await store.userAccess.putInvite({ roleKey: 'urn:li:dataHubRole:Reader', nonce: 'n1', createdAt: 1, createdBy: USER });
      await store.userAccess.putInvite({ roleKey: '', nonce: 'n0', createdAt: 1, createdBy: USER });
      await store.userAccess.putInvite({ roleKey: 'urn:li:dataHubRole:Reader', nonce: 'n2', createdAt: 2, createdBy: USER });
      assert.deepEqual(await store.userAccess.getInvite('urn:li:dataHubRole:Reader'), {
        roleKey: 'urn:li:dataHubRole:Reader',
        nonce: 'n2',
        createdAt: 2,
        createdBy: USER,
      });
      assert.equal((await store.userAccess.getInvite(''))?.nonce, 'n0');
    });

    it('counts sign-in failures per username and address, clears one pair and prunes old ones', async () => {
      await store.userAccess.recordSignInFailure('u', '10.0.0.1', 100);
      await store.userAccess.recordSignInFailure('u', '10.0.0.1', 200);
      await store.userAccess.recordSignInFailure('u', '10.0.0.2', 300);
      assert.deepEqual(await store.userAccess.getSignInFailures('u', '10.0.0.1'), { failures: 2, lastFailureAt: 200 });
      await store.userAccess.clearSignInFailures('u', '10.0.0.2');
      assert.equal(await store.userAccess.getSignInFailures('u', '10.0.0.2'), undefined);
      await store.userAccess.recordSignInFailure('v', '10.0.0.1', 500);
      assert.equal(await store.userAccess.pruneSignInFailures(300), 1);
      assert.equal(await store.userAccess.getSignInFailures('u', '10.0.0.1'), undefined);
      assert.equal((await store.userAccess.getSignInFailures('v', '10.0.0.1'))?.failures, 1);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const POLICY = 'urn:li:dataHubPolicy:test-policy';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ACTOR = 'urn:li:corpuser:a';

const op = (entityType: string, urn: string, aspect: string, value: Record<string, unknown>, runId = 'test'): WriteOp => ({
  kind: 'aspect',
  entityType,
  urn,
  aspect,
  value,
  systemMetadata: { runId },
});

for (const backend of await backends()) {
  describe(`the grant basis (role and policy change counter): ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));
    const changes = async () => (await store.identity.grantBasis(ACTOR)).policyChanges;
    const write = (...ops: WriteOp[]) => store.aspects.write({ ops, actor: ACTOR, now: Date.now() });

    it('rises with every committed change to a policy, by any path, and with nothing else', async () => {
      let last = await changes();
      const rose = async (what: string) => {
        const now = await changes();
        assert.ok(now > last, `${what}: the counter stayed at ${now}`);
        last = now;
      };
      await write(
        op('dataHubPolicy', POLICY, 'dataHubPolicyKey', { id: 'test-policy' }),
        op('dataHubPolicy', POLICY, 'dataHubPolicyInfo', { state: 'ACTIVE' }),
      );
      await rose('created');
      await write(op('dataHubPolicy', POLICY, 'dataHubPolicyInfo', { state: 'INACTIVE' }, 'second'));
      await rose('updated');
      await write(op('dataHubPolicy', POLICY, 'status', { removed: true }));
      await rose('soft-deleted');
      await write(op('dataset', DATASET, 'datasetKey', { name: 'db.users' }), op('dataset', DATASET, 'status', { removed: false }));
      await store.aspects.deleteEntity(DATASET);
      assert.equal(await changes(), last, 'a dataset is not counted');
      await store.runs.rollbackEntity({
        urn: POLICY,
        runId: 'second',
        keyAspect: 'dataHubPolicyKey',
        created: { kind: 'keep' },
        actor: ACTOR,
        now: Date.now(),
      });
      await rose('rolled back');
      await store.aspects.deleteAspect(POLICY, 'status');
      await rose('aspect deleted');
      await store.aspects.deleteEntity(POLICY);
      await rose('hard-deleted');
    });

    it('reads the role with the counter', async () => {
      assert.equal((await store.identity.grantBasis(ACTOR)).roleUrn, undefined);
      await store.identity.setRole([ACTOR], 'urn:li:dataHubRole:Reader', ACTOR, Date.now());
      assert.equal((await store.identity.grantBasis(ACTOR)).roleUrn, 'urn:li:dataHubRole:Reader');
    });

    it('does not rise for a write that a failing batch rolled back', async () => {
      const before = await changes();
      await assert.rejects(
        write(op('dataHubPolicy', POLICY, 'dataHubPolicyInfo', { state: 'ACTIVE' }), {
          ...(op('dataset', DATASET, 'status', {}) as Extract<WriteOp, { kind: 'aspect' }>),
          update: () => {
            throw new Error('refused');
          },
        }),
        /refused/,
      );
      assert.equal(await changes(), before);
    });
  });
}

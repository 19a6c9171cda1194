import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

// DataHub Actions (acryl-datahub-actions, pinned beside the SDK in requirements.txt) run as `datahub-actions actions
// run -c <recipe>` with the datahub-cloud event source against the server: test/clients/py/actions_pipeline.py.
for (const backend of await clientBackends()) {
  describe(`DataHub Actions against the events API: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'actions_pipeline.py', () => ({ suffix: backend.name }));

    it('gets the Entity Change Events of a tag added through the SDK, a deprecation set through GraphQL and a hard delete', () => {
      const { tagged, deprecated, deleted } = run.result.first;
      assert.deepEqual(tagged, [
        ['LIFECYCLE', 'CREATE', null],
        ['TAG', 'ADD', 'urn:li:tag:pii'],
      ]);
      assert.deepEqual(
        deprecated.map((c: string[]) => c.slice(0, 2)),
        [
          ['LIFECYCLE', 'CREATE'],
          ['DEPRECATION', 'MODIFY'],
        ],
      );
      assert.deepEqual(deleted, [
        ['LIFECYCLE', 'CREATE', null],
        ['LIFECYCLE', 'HARD_DELETE', null],
      ]);
    });

    it('resumes from the offset it stored when stopped: only what changed in between, nothing replayed', () => {
      const later = 'urn:li:dataset:(urn:li:dataPlatform:hive,actions.later.' + backend.name + ',PROD)';
      assert.deepEqual(run.result.second, [
        [later, 'LIFECYCLE', 'CREATE'],
        [later, 'TAG', 'ADD'],
      ]);
    });

    it("propagates a tag along lineage with DataHub's tag_propagation action", () => {
      assert.equal(run.result.propagated, true);
      assert.deepEqual(run.result.downstreamTags, ['urn:li:tag:classification.pii']);
    });
  });
}

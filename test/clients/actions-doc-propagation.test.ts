import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

// DataHub's doc_propagation action, installed for real (acryl-datahub-actions), with the datahub-cloud source and the
// filters of DataHub's own deployment: test/clients/py/actions_doc_propagation.py.
for (const backend of await clientBackends()) {
  describe(`DataHub Actions' doc_propagation against the events API: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'actions_doc_propagation.py', () => ({ suffix: backend.name }));

    it("propagates a field's description ingested in schemaMetadata to the downstream field of its fine-grained lineage", () => {
      assert.equal(run.result.ingested, true, run.result.log);
      assert.deepEqual(run.result.downstreamIp, ["The client's address"]);
      // Not onto the field it came from.
      assert.deepEqual(run.result.upstreamIp, []);
    });

    it('propagates a field description edited through GraphQL the same way', () => {
      assert.equal(run.result.edited, true, run.result.log);
      assert.deepEqual(run.result.downstreamAgent, ['The browser']);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const URN = datasetUrn('sdk.hooked');

for (const backend of await clientBackends()) {
  describe(`change events read with DataHub's own classes: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_change_events.py', () => ({ urn: URN, secret: 'a secret the receiver keeps' }));

    it("delivers the emitter's deprecation as an EntityChangeEvent that acryl-datahub parses and validates, signed", () => {
      assert.deepEqual(run.result, {
        deliveries: 1,
        valid: true,
        entityType: 'dataset',
        entityUrn: URN,
        category: 'DEPRECATION',
        operation: 'MODIFY',
        actor: 'urn:li:corpuser:datahub',
        version: 0,
        parameters: { status: 'DEPRECATED', note: 'Use the v2 table', timestamp: '1798675200000' },
        signatureOk: true,
        eventType: 'EntityChangeEvent_v1',
      });
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { datasetUrn } from '../support/truncation.ts';

const URNS = {
  up: datasetUrn('sdk.rel_up'),
  down: datasetUrn('sdk.rel_down'),
  owned: datasetUrn('sdk.rel_owned'),
  hub: datasetUrn('sdk.rel_hub'),
  soft: datasetUrn('sdk.rel_soft'),
  hard: datasetUrn('sdk.rel_hard'),
};
/** More edges than one page of /openapi/relationships/v1/ (200) holds. */
const OWNERS = Array.from({ length: 250 }, (_, i) => `urn:li:corpuser:owner${String(i).padStart(3, '0')}`);
const HUB_DOWNSTREAMS = Array.from({ length: 250 }, (_, i) => datasetUrn(`sdk.rel_from_hub${String(i).padStart(3, '0')}`));

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK relationship reads: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_relationships.py', () => ({ ...URNS, owners: OWNERS, hubDownstreams: HUB_DOWNSTREAMS }));

    it('reads the lineage the SDK emitted with get_related_entities, both ways', () => {
      assert.deepEqual(run.result.downstreamOfOutgoing, [[URNS.up, 'DownstreamOf', null]]);
      assert.deepEqual(
        run.result.upIncomingBefore,
        [URNS.down, URNS.hard, URNS.soft].sort().map((u) => [u, 'DownstreamOf', null]),
      );
    });

    it('pages through 250 OwnedBy edges each way', () => {
      assert.deepEqual(
        run.result.ownedBy,
        OWNERS.map((o) => [o, 'OwnedBy', null]),
      );
      assert.deepEqual(run.result.ownerIncoming, [[URNS.owned, 'OwnedBy', null]]);
      assert.deepEqual(
        run.result.hubIncoming,
        HUB_DOWNSTREAMS.map((d) => [d, 'DownstreamOf', null]),
      );
    });

    it('scrolls the same edges with scroll_relationships, following scroll ids', () => {
      assert.deepEqual(run.result.scrollHub, { count: 250, pages: 3, sources: true });
    });

    it('reads lineage edges with their upstream and downstream ends with scroll_lineage', () => {
      assert.deepEqual(
        run.result.lineageOfUp,
        [URNS.down, URNS.hard, URNS.soft].sort().map((d) => [d, URNS.up, 'DownstreamOf']),
      );
    });

    it('hides the edges of a soft-deleted entity, drops those of a hard-deleted one, and shows the soft-deleted ones again once restored', () => {
      assert.deepEqual(run.result.upIncomingAfter, [[URNS.down, 'DownstreamOf', null]]);
      assert.deepEqual(run.result.softOutgoing, []);
      assert.deepEqual(
        run.result.upIncomingRestored,
        [URNS.down, URNS.soft].sort().map((u) => [u, 'DownstreamOf', null]),
      );
    });
  });
}

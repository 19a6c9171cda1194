import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';

// DataHub's smoke test dataset (smoke-test/tests/deprecation/data.json) and two more.
const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:kafka,smoke-other,PROD)';
const REPLACEMENT = 'urn:li:dataset:(urn:li:dataPlatform:kafka,smoke-replacement,PROD)';
const ADMIN = 'urn:li:corpuser:datahub';
const actorEntity = {
  urn: ADMIN,
  type: 'CORP_USER',
  username: 'datahub',
  // DataHub's root user, as its bootstrap writes it.
  properties: { displayName: 'DataHub', title: 'DataHub Root User', firstName: null, lastName: null, fullName: null, email: null },
  info: { active: true, displayName: 'DataHub', title: 'DataHub Root User', firstName: null, lastName: null, fullName: null, email: null },
};
const undeprecated = (note: string) => ({ actor: ADMIN, deprecated: false, note, decommissionTime: null, actorEntity, replacement: null });

for (const backend of await clientBackends()) {
  describe(`DataHub's deprecation smoke scenario through DataHubGraph.execute_graphql: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_deprecation.py', async (server) => {
      await ingest(
        server,
        mcp(URN, 'datasetProperties', { tags: [], customProperties: { prop1: 'fakeprop', prop2: 'pikachu' } }),
        mcp(OTHER, 'status', { removed: false }),
        mcp(REPLACEMENT, 'datasetProperties', { name: 'Replacement', customProperties: {} }),
      );
      return { urn: URN, other: OTHER, replacement: REPLACEMENT };
    });

    it('reads a never-deprecated dataset as not deprecated (Almanac never answers null)', () => {
      assert.deepEqual(run.result.before, {
        actor: null,
        deprecated: false,
        note: null,
        decommissionTime: null,
        actorEntity: null,
        replacement: null,
      });
    });

    it('updates every field, and the fragment reads the actor and the replacement back as entities', () => {
      assert.equal(run.result.updateAll.updateDeprecation, true);
      const after = run.result.afterAll;
      assert.deepEqual(
        { ...after, replacement: undefined },
        { actor: ADMIN, deprecated: true, note: 'My test note', decommissionTime: 0, actorEntity, replacement: undefined },
      );
      assert.deepEqual(after.replacement, {
        urn: REPLACEMENT,
        type: 'DATASET',
        name: 'smoke-replacement',
        properties: { name: 'Replacement', qualifiedName: null },
        platform: {
          urn: 'urn:li:dataPlatform:kafka',
          type: 'DATA_PLATFORM',
          lastIngested: null,
          name: 'kafka',
          properties: null,
          displayName: null,
          info: null,
        },
      });
    });

    it('applies a partial update as DataHub does: the note becomes empty, time and replacement are cleared', () => {
      assert.equal(run.result.updatePartial.updateDeprecation, true);
      assert.deepEqual(run.result.afterPartial, undeprecated(''));
    });

    it('deprecates two datasets in one batch, then un-deprecates them', () => {
      assert.equal(run.result.batch.batchUpdateDeprecation, true);
      for (const d of run.result.afterBatch)
        assert.deepEqual(d, { actor: ADMIN, deprecated: true, note: 'Batch', decommissionTime: null, actorEntity, replacement: null });
      assert.equal(run.result.undeprecate.batchUpdateDeprecation, true);
      assert.deepEqual(run.result.afterUndeprecate, [undeprecated(''), undeprecated('')]);
    });
  });
}

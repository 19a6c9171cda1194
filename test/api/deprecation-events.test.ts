import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { mcp, patchMcp } from '../support/fixtures.ts';
import { gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { datasetUrn } from '../support/truncation.ts';

const UPDATE = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const ACTOR = 'urn:li:corpuser:datahub';
const GENERIC = 'com.linkedin.pegasus2avro.mxe.GenericAspect';
const enc = encodeURIComponent;
const deprecation = (note: string) => ({ deprecated: true, note, actor: ACTOR });

for (const backend of await backends()) {
  describe(`one change event per deprecation change, whatever the path: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_RETENTION_SCHEDULE: 'off', ALMANAC_WEBHOOK_DELIVERY: 'false' },
    );

    /**
     * The deprecation changes the change log holds for the urn, oldest first: each MetadataChangeLog's values before
     * and after, each checked to come with its one DEPRECATION event (what webhooks deliver).
     */
    const events = async (urn: string) => {
      const read = async (topic: string) =>
        (await server.app.services.store.changeEvents.readEventLog(topic, 0, 10_000))
          .filter((e) => e.entityUrn === urn)
          .map((e) => JSON.parse(e.value));
      const text = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8');
      const value = (g: Record<string, { value: string }> | null) => (g ? JSON.parse(text(g[GENERIC]!.value)) : null);
      const changes = (await read('MetadataChangeLog_Versioned_v1')).filter((v) => v.aspectName.string === 'deprecation');
      const sent = (await read('PlatformEvent_v1')).map((v) => JSON.parse(text(v.payload.value))).filter((e) => e.category === 'DEPRECATION');
      assert.equal(sent.length, changes.length, 'one DEPRECATION event per change');
      return changes.map((v) => ({ before: value(v.previousAspectValue), after: value(v.aspect) }));
    };

    /** Runs the change and returns the events it added for the urn. */
    const added = async (urn: string, change: () => Promise<unknown>) => {
      const before = (await events(urn)).length;
      await change();
      return (await events(urn)).slice(before);
    };

    const ingest = async (proposal: unknown) => {
      const res = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal, async: 'false' } });
      assert.equal(res.status, 200, res.text);
    };

    const dataset = async (name: string) => {
      const urn = datasetUrn(`deprecation.events.${name}`);
      await ingest(mcp(urn, 'status', { removed: false }));
      return urn;
    };

    it('records one event for a GraphQL updateDeprecation', async () => {
      const urn = await dataset('graphql');
      const got = await added(urn, () => gqlData(server, UPDATE, { input: { urn, deprecated: true, note: 'through GraphQL' } }));
      assert.equal(got.length, 1);
      assert.equal(got[0]!.after.note, 'through GraphQL');
      assert.equal(got[0]!.before, null);
    });

    it('records one event for a Rest.li ingestProposal', async () => {
      const urn = await dataset('restli');
      const got = await added(urn, () => ingest(mcp(urn, 'deprecation', deprecation('through Rest.li'))));
      assert.equal(got.length, 1);
      assert.equal(got[0]!.after.note, 'through Rest.li');
    });

    it('records one event for an OpenAPI v3 aspect write', async () => {
      const urn = await dataset('openapi');
      const got = await added(urn, async () => {
        const res = await server.request('POST', `/openapi/v3/entity/dataset/${enc(urn)}/deprecation?async=false`, {
          body: { value: deprecation('through OpenAPI') },
        });
        assert.equal(res.status, 200, res.text);
      });
      assert.equal(got.length, 1);
      assert.equal(got[0]!.after.note, 'through OpenAPI');
    });

    it('records one event for a PATCH of an existing deprecation, with the value it replaced', async () => {
      const urn = await dataset('patch');
      await ingest(mcp(urn, 'deprecation', deprecation('before the patch')));
      const got = await added(urn, () =>
        ingest(patchMcp(urn, 'deprecation', { forceGenericPatch: true, patch: [{ op: 'replace', path: '/note', value: 'through PATCH' }] })),
      );
      assert.equal(got.length, 1);
      assert.equal(got[0]!.before?.note, 'before the patch');
      assert.equal(got[0]!.after.note, 'through PATCH');
    });

    it('records one event for a rollback that restores an earlier deprecation, as its writer made it', async () => {
      const urn = await dataset('rollback');
      await ingest({ ...mcp(urn, 'deprecation', deprecation('kept')), systemMetadata: { runId: 'deprecation-events-1' } });
      await ingest({ ...mcp(urn, 'deprecation', deprecation('rolled back')), systemMetadata: { runId: 'deprecation-events-2' } });
      const got = await added(urn, async () => {
        const res = await server.request('POST', '/runs?action=rollback', { body: { runId: 'deprecation-events-2', dryRun: false, safe: true } });
        assert.equal(res.status, 200, res.text);
      });
      assert.equal(got.length, 1);
      assert.equal(got[0]!.before?.note, 'rolled back');
      assert.equal(got[0]!.after.note, 'kept');
    });

    it('records nothing for the same deprecation written again', async () => {
      const urn = await dataset('unchanged');
      await ingest(mcp(urn, 'deprecation', deprecation('once')));
      assert.deepEqual(await added(urn, () => ingest(mcp(urn, 'deprecation', deprecation('once')))), []);
    });
  });
}

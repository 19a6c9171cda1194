import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { createDataset, DAY, datasetUrn, HOUR, ingestEvents, storedStamps, truncate, waitForTask, ended } from '../support/truncation.ts';

const policy = (entity: string, aspect: string, retention: unknown) => ({ entity, aspect, config: { retention } });

async function ingestDescriptions(server: TestServer, urn: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const proposal = {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { contentType: 'application/json', value: JSON.stringify({ description: `v${i}` }) },
    };
    const res = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal } });
    assert.equal(res.status, 200, res.text);
  }
}

for (const backend of await backends()) {
  describe(`retention over HTTP: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    // No daily run: it would apply the policies these tests set at a moment of its own.
    useServer(backend, (s) => void (server = s), { ALMANAC_RETENTION_SCHEDULE: 'off' });

    it('refuses a bad policy with a 400 naming the field', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [policy('nosuch', '*', { time: { maxAgeInSeconds: 60 } }), /Field 'entity': 'nosuch' is not a known entity type/],
        [policy('dataset', 'nosuch', { time: { maxAgeInSeconds: 60 } }), /Field 'aspect': 'nosuch' is not an aspect of dataset/],
        [
          policy('dataset', 'datasetProfile', { version: { maxVersions: 3 } }),
          /Field 'config.retention.version': datasetProfile is a timeseries aspect/,
        ],
        [policy('dataset', 'datasetKey', { version: { maxVersions: 3 } }), /Field 'aspect': datasetKey is a key aspect/],
        [policy('dataset', '*', { version: { maxVersions: 0 } }), /Field 'config.retention.version.maxVersions'/],
        [policy('dataset', '*', { time: { maxAgeInSeconds: 1.5 } }), /Field 'config.retention.time.maxAgeInSeconds'/],
        [policy('dataset', '*', {}), /Field 'config.retention': give version.maxVersions, time.maxAgeInSeconds or both/],
        [{ ...policy('dataset', '*', { time: { maxAgeInSeconds: 60 } }), keep: 'all' }, /Field 'keep': is not a field of a retention policy/],
        [{ entity: 'dataset', aspect: '*' }, /Field 'config'/],
      ];
      for (const [body, message] of cases) {
        const res = await server.request('POST', '/api/retention', { body });
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      }
      assert.deepEqual((await server.request('GET', '/api/retention')).json, { policies: [] }, 'nothing was stored');
    });

    it('lets only holders of a retention privilege change policies', async () => {
      const reader = await actorWithRole(server, 'retention-reader', 'Reader');
      const res = await server.request('POST', '/api/retention', { body: policy('dataset', '*', { time: { maxAgeInSeconds: 60 } }), auth: reader });
      assert.equal(res.status, 403, res.text);
      assert.equal((await server.request('GET', '/api/retention/preview', { auth: reader })).status, 403);
      assert.equal(
        (await server.request('POST', '/entities?action=applyRetention', { body: {}, auth: reader })).json.message,
        'User is unauthorized to apply retention.',
      );
    });

    it('keeps at most maxVersions versions of what clients ingest, and reports retention on /config', async () => {
      assert.equal((await server.request('GET', '/config')).json.retention, 'true');
      const set = await server.request('POST', '/api/retention', { body: policy('dataset', 'datasetProperties', { version: { maxVersions: 2 } }) });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual(
        [set.json.entity, set.json.aspect, set.json.config, set.json.source],
        ['dataset', 'datasetProperties', { retention: { version: { maxVersions: 2 } } }, 'api'],
      );
      const urn = datasetUrn('versions');
      await ingestDescriptions(server, urn, 5);
      const history = await server.request('GET', `/openapi/v2/timeline/v1/${encodeURIComponent(urn)}?categories=DOCUMENTATION`);
      assert.equal(history.status, 200, history.text);
      const versions = await server.app.services.store.aspects.getAspectHistory(urn, 'datasetProperties', 100);
      assert.deepEqual(
        versions.map((v) => (v.value as { description: string }).description),
        ['v4', 'v3'],
      );
      const del = await server.request('DELETE', '/api/retention/dataset/datasetProperties');
      assert.equal(del.status, 200, del.text);
      assert.equal((await server.request('DELETE', '/api/retention/dataset/datasetProperties')).status, 404);
    });

    it("answers DataHub's applyRetention on entities and operations, refusing parameters it does not take", async () => {
      const urn = datasetUrn('apply');
      await ingestDescriptions(server, urn, 6);
      // Versions younger than a second: the pass the new policy starts keeps them all; a second later they are due.
      assert.equal(
        (await server.request('POST', '/api/retention', { body: policy('dataset', 'datasetProperties', { time: { maxAgeInSeconds: 1 } }) })).status,
        200,
      );
      assert.equal((await server.app.services.store.aspects.getAspectHistory(urn, 'datasetProperties', 100)).length, 6);
      await sleep(1100);
      const unknownAspect = await server.request('POST', '/entities?action=applyRetention', { body: { aspectName: 'datasetPropertes' } });
      assert.equal(unknownAspect.status, 400, unknownAspect.text);
      assert.match(unknownAspect.json.message, /Parameter 'aspectName': 'datasetPropertes' is not a known aspect/);
      const bad = await server.request('POST', '/operations?action=applyRetention', { body: { urn, everything: true } });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.json.message, /everything/);
      const res = await server.request('POST', '/entities?action=applyRetention', {
        body: { urn, aspectName: 'datasetProperties', attemptWithVersion: 1 },
      });
      assert.equal(res.status, 200, res.text);
      assert.match(
        res.json.value,
        /^BulkApplyRetentionResult\(argStart=0, argCount=100, argAttemptWithVersion=1, argUrn=urn:li:dataset:.*, argAspectName=datasetProperties, rowsHandled=5,/,
      );
      const via = await server.request('POST', '/api/gms/operations?action=applyRetention', { body: {} });
      assert.equal(via.status, 200, via.text);
      assert.match(via.json.value, /rowsHandled=0/);
      assert.equal((await server.app.services.store.aspects.getAspectHistory(urn, 'datasetProperties', 100)).length, 1, 'the latest stays');
      await server.request('DELETE', '/api/retention/dataset/datasetProperties');
    });

    it('previews a timeseries policy, then a run deletes exactly what the preview showed, as a truncation task', async () => {
      const urn = datasetUrn('profiles');
      await createDataset(server.request, urn);
      const now = Date.now();
      // One row an hour for 10 days, half an hour off the hour, so a few seconds' drift moves no row across the cutoff.
      const stamps = Array.from({ length: 240 }, (_, i) => now - (i + 1) * HOUR + HOUR / 2);
      await ingestEvents(server.request, urn, stamps);
      assert.equal(
        (await server.request('POST', '/api/retention', { body: policy('dataset', 'datasetProfile', { time: { maxAgeInSeconds: 7 * 86_400 } }) }))
          .status,
        200,
      );
      const preview = await server.request('GET', '/api/retention/preview');
      assert.equal(preview.status, 200, preview.text);
      const entry = preview.json.preview.find((p: { aspect: string }) => p.aspect === 'datasetProfile');
      assert.deepEqual(
        [entry.kind, entry.delete, entry.total, entry.needsConfirmation, entry.policy],
        ['timeseries', 72, 240, false, { entity: 'dataset', aspect: 'datasetProfile' }],
      );
      assert.ok(entry.oldestKeptMillis >= entry.cutoffMillis && entry.oldestKeptMillis < entry.cutoffMillis + HOUR);
      assert.equal(entry.newestKeptMillis, Math.max(...stamps));

      const started = await server.request('POST', '/api/retention/run', { body: {} });
      assert.equal(started.status, 202, started.text);
      const run = await server.request('GET', `/api/retention/runs/${started.json.id}?waitMillis=10000`);
      assert.equal(run.json.state, 'completed', run.text);
      const outcome = run.json.outcomes.find((o: { aspect: string }) => o.aspect === 'datasetProfile');
      assert.equal(outcome.outcome, 'started');
      assert.equal(outcome.rowsToDelete, 72);
      const task = await waitForTask(server.request, outcome.taskId, ended);
      assert.deepEqual([task.state, task.rowsDeleted, task.createdBy], ['completed', 72, 'urn:li:corpuser:datahub']);
      const left = await storedStamps(server.request, urn);
      assert.equal(left.length, 168);
      assert.ok(left.every((ts) => ts >= outcome.cutoffMillis));
      const history = await server.request('GET', '/api/retention/runs?limit=5');
      assert.equal(history.json.runs[0].id, started.json.id);
    });

    it('manages policies over GraphQL with the same checks', async () => {
      const gql = (query: string, variables: object = {}, auth?: string) =>
        server.request('POST', '/api/graphql', { body: { query, variables }, ...(auth ? { auth } : {}) });
      const set = await gql(
        'mutation($i: RetentionPolicyInput!) { setRetentionPolicy(input: $i) { entity aspect maxVersions maxAgeInSeconds source } }',
        {
          i: { entity: 'chart', aspect: '*', maxVersions: 4 },
        },
      );
      assert.deepEqual(set.json.data, { setRetentionPolicy: { entity: 'chart', aspect: '*', maxVersions: 4, maxAgeInSeconds: null, source: 'api' } });
      const bad = await gql('mutation { setRetentionPolicy(input: { entity: "chart", aspect: "*" }) { entity } }');
      assert.match(bad.json.errors[0].message, /Field 'config.retention': give version.maxVersions, time.maxAgeInSeconds or both/);
      const listed = await gql('{ listRetentionPolicies { entity aspect maxVersions } }');
      assert.ok(listed.json.data.listRetentionPolicies.some((p: { entity: string }) => p.entity === 'chart'));
      assert.ok(Array.isArray((await gql('{ previewRetention { kind delete total } }')).json.data.previewRetention));
      const half = await gql('mutation { runRetention(input: { entity: "chart" }) { id } }');
      assert.match(half.json.errors[0].message, /Fields 'entity' and 'aspect' name one policy/);
      const missing = await gql('mutation { runRetention(input: { entity: "dashboard", aspect: "*" }) { id } }');
      assert.match(missing.json.errors[0].message, /No retention policy for entity dashboard and aspect \*/);
      const reader = await actorWithRole(server, 'retention-gql-reader', 'Reader');
      const refused = await gql('mutation { deleteRetentionPolicy(entity: "chart", aspect: "*") }', {}, reader);
      assert.match(refused.json.errors[0].message, /unauthorized to manage retention policies/);
      assert.deepEqual((await gql('mutation { deleteRetentionPolicy(entity: "chart", aspect: "*") }')).json.data, { deleteRetentionPolicy: true });
      assert.deepEqual((await gql('mutation { deleteRetentionPolicy(entity: "chart", aspect: "*") }')).json.data, { deleteRetentionPolicy: false });
    });

    it('refuses a run body it does not understand, and a run of a policy that does not exist', async () => {
      assert.equal((await server.request('POST', '/api/retention/run', { body: { confirm: 'yes' } })).status, 400);
      assert.match((await server.request('POST', '/api/retention/run', { body: { all: true } })).json.message, /Field 'all'/);
      assert.equal((await server.request('POST', '/api/retention/run', { body: { entity: 'dataset' } })).status, 400);
      assert.equal((await server.request('POST', '/api/retention/run', { body: { entity: 'chart', aspect: '*' } })).status, 404);
    });

    it('refuses a truncation whose cutoff is in the future unless forced, and still dry-runs it', async () => {
      const urn = datasetUrn('future');
      await createDataset(server.request, urn);
      await ingestEvents(server.request, urn, [Date.now() - DAY, Date.now() - HOUR], 'datasetUsageStatistics');
      // Microseconds where milliseconds belong: a cutoff some 50,000 years from now.
      const micros = Date.now() * 1000;
      const body = { entityType: 'dataset', aspect: 'datasetUsageStatistics', endTimeMillis: micros, dryRun: false };
      const refused = await truncate(server.request, body);
      assert.equal(refused.status, 400, refused.text);
      assert.match(
        refused.json.message,
        /Parameter 'endTimeMillis': \d+ .* is in the future, so this truncation would delete every row of the index \(2 of 2\)\. It looks like microseconds/,
      );
      assert.match(refused.json.message, /Pass force: true/);
      assert.equal((await storedStamps(server.request, urn, 'datasetUsageStatistics')).length, 2, 'nothing was deleted');
      const dry = await truncate(server.request, { ...body, dryRun: true });
      assert.match(dry.json.value, /^Delete 2 out of 2 rows \(100\.00%\)/);
      const forced = await truncate(server.request, { ...body, force: true });
      assert.equal(forced.status, 200, forced.text);
      await waitForTask(server.request, forced.json.value, ended);
      assert.equal((await storedStamps(server.request, urn, 'datasetUsageStatistics')).length, 0);
    });
  });
}

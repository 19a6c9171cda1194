import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeEventRules } from '../../src/catalog/events/change-event-rules.ts';
import type { AspectChange } from '../../src/storage/store.ts';

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,entries,PROD)';
const change = (over: Partial<AspectChange>): AspectChange => ({
  entityType: 'dataset',
  urn,
  aspect: 'datasetProperties',
  changeType: 'UPSERT',
  before: { description: 'before' },
  after: { description: 'après', customProperties: { team: 'data' } },
  systemMetadata: { runId: 'r2', lastObserved: 2 },
  previousSystemMetadata: { runId: 'r1', lastObserved: 1 },
  actor: 'urn:li:corpuser:a',
  at: 1_700_000_000_000,
  ...over,
});
const entity = { entityType: 'dataset', entityUrn: urn };
const served = (stored: string, topic: string) => changeEventRules.entryEvents(stored, topic, entity).map((e) => e.value);

describe('change log entries as stored and as served', () => {
  it('serves a change, stored as its MetadataChangeLog or with its values as text, as the earlier form was served', () => {
    const c = change({});
    const [entry] = changeEventRules.changeLog(c);
    const earlier = `{"mcl":${JSON.stringify(c)}}`;
    for (const topic of ['MetadataChangeLog_Versioned_v1', 'PlatformEvent_v1']) {
      assert.deepEqual(served(entry!.value, topic), served(earlier, topic), topic);
    }
    for (const other of [change({ changeType: 'DELETE', after: null, systemMetadata: null }), change({ aspect: 'datasetProfile', before: null })]) {
      const [stored] = changeEventRules.changeLog(other);
      const topic = stored!.topic;
      assert.deepEqual(served(stored!.value, topic), served(`{"mcl":${JSON.stringify(other)}}`, topic), topic);
      assert.deepEqual(served(stored!.value, 'PlatformEvent_v1'), served(`{"mcl":${JSON.stringify(other)}}`, 'PlatformEvent_v1'));
    }
    const mcl = JSON.parse(served(entry!.value, 'MetadataChangeLog_Versioned_v1')[0]!) as {
      aspect: Record<string, { value: string }>;
    };
    const bytes = mcl.aspect['com.linkedin.pegasus2avro.mxe.GenericAspect']!.value;
    assert.deepEqual(JSON.parse(Buffer.from(bytes, 'latin1').toString('utf8')), c.after);
  });

  it("serves a batch's timeseries events, kept as one small entry, as the batch form before it was served", () => {
    const events = [0, 1, 2].map((i) =>
      change({
        aspect: 'datasetProfile',
        urn: `${urn.slice(0, -6)}${i},PROD)`,
        before: null,
        after: { timestampMillis: i, rowCount: i },
        systemMetadata: i === 1 ? null : { runId: 'r' },
        previousSystemMetadata: null,
      }),
    );
    const [entry, more] = changeEventRules.timeseriesLog(events);
    assert.equal(more, undefined);
    assert.ok(entry!.value.length < `{"mcls":${JSON.stringify(events)}}`.length, 'the batch is stored smaller');
    assert.deepEqual(
      served(entry!.value, 'MetadataChangeLog_Timeseries_v1'),
      served(`{"mcls":${JSON.stringify(events)}}`, 'MetadataChangeLog_Timeseries_v1'),
    );
    assert.equal(served(entry!.value, 'MetadataChangeLog_Timeseries_v1').length, 3);
  });

  it('keeps apart the timeseries events of one batch written by different actors or at different times', () => {
    const events = [change({ actor: 'urn:li:corpuser:a' }), change({ actor: 'urn:li:corpuser:a' }), change({ actor: 'urn:li:corpuser:b' })].map(
      (c) => ({ ...c, aspect: 'datasetProfile', before: null }),
    );
    const entries = changeEventRules.timeseriesLog(events);
    assert.equal(entries.length, 2);
    const actors = entries.flatMap((e) =>
      served(e.value, 'MetadataChangeLog_Timeseries_v1').map(
        (v) => (JSON.parse(v) as { created: Record<string, { actor: string }> }).created['com.linkedin.pegasus2avro.common.AuditStamp']!.actor,
      ),
    );
    assert.deepEqual(actors, ['urn:li:corpuser:a', 'urn:li:corpuser:a', 'urn:li:corpuser:b']);
  });
});

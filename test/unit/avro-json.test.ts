import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import schemas from '../../src/catalog/events/generated/event-schemas.json' with { type: 'json' };
import { AvroJsonEncoder } from '../../src/catalog/events/avro-json.ts';

const mcl = new AvroJsonEncoder(schemas.MetadataChangeLog as unknown as ConstructorParameters<typeof AvroJsonEncoder>[0]);

describe("Avro's JSON encoding by DataHub's MetadataChangeLog schema", () => {
  it('wraps union values in their type names, fills defaults, and keeps the schema order', () => {
    const encoded = JSON.parse(
      mcl.encode({
        entityType: 'dataset',
        entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: '{"removed":false}', contentType: 'application/json' },
        systemMetadata: { runId: 'r1', properties: { k: 'v' } },
        created: { time: 5, actor: 'urn:li:corpuser:a' },
      }),
    ) as Record<string, unknown>;
    assert.deepEqual(Object.keys(encoded), [
      'auditHeader',
      'entityType',
      'entityUrn',
      'entityKeyAspect',
      'changeType',
      'aspectName',
      'aspect',
      'systemMetadata',
      'headers',
      'previousAspectValue',
      'previousSystemMetadata',
      'created',
    ]);
    assert.deepEqual(encoded.entityUrn, { string: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)' });
    assert.deepEqual(encoded.aspect, {
      'com.linkedin.pegasus2avro.mxe.GenericAspect': { value: '{"removed":false}', contentType: 'application/json' },
    });
    const sm = (encoded.systemMetadata as Record<string, Record<string, unknown>>)['com.linkedin.pegasus2avro.mxe.SystemMetadata']!;
    assert.deepEqual([sm.lastObserved, sm.runId, sm.properties], [{ long: 0 }, { string: 'r1' }, { map: { k: 'v' } }]);
    assert.deepEqual(encoded.created, {
      'com.linkedin.pegasus2avro.common.AuditStamp': { time: 5, actor: 'urn:li:corpuser:a', impersonator: null, message: null },
    });
    assert.equal(encoded.previousAspectValue, null);
  });

  it('writes bytes one character per byte, as Avro does', () => {
    const encoded = JSON.parse(
      mcl.encode({ entityType: 'dataset', changeType: 'UPSERT', aspect: { value: '{"n":"é"}', contentType: 'application/json' } }),
    ) as {
      aspect: Record<string, { value: string }>;
    };
    const bytes = encoded.aspect['com.linkedin.pegasus2avro.mxe.GenericAspect']!.value;
    assert.equal(bytes, '{"n":"\u00c3\u00a9"}');
    assert.equal(Buffer.from(bytes, 'latin1').toString('utf8'), '{"n":"é"}');
  });

  it('names the field of a value the schema does not take', () => {
    assert.throws(() => mcl.encode({ entityType: 'x', changeType: 'NOPE' }), /^Error: \$\.changeType: expected one of UPSERT/);
    assert.throws(() => mcl.encode({ entityType: 'x', changeType: 'UPSERT', systemMetadata: { runId: 5 } }), /\$\.systemMetadata\.runId: no branch/);
    assert.throws(() => mcl.encode({ changeType: 'UPSERT' }), /\$\.entityType: expected string, got undefined/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { mcp, patchMcp } from '../support/fixtures.ts';
import { gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const GENERIC = 'com.linkedin.pegasus2avro.mxe.GenericAspect';
const VERSIONED = 'MetadataChangeLog_Versioned_v1';
const TIMESERIES = 'MetadataChangeLog_Timeseries_v1';
const PLATFORM = 'PlatformEvent_v1';
const TAG_KEYS = { tags: ['attribution\u241fsource', 'tag'] };
const UPDATE_DESCRIPTION = 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const UPDATE_DEPRECATION = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';

/** Avro's JSON bytes: one character per byte. */
const bytesText = (v: string) => Buffer.from(v, 'latin1').toString('utf8');

/** A MetadataChangeLog as a consumer reads it from the poll's Avro JSON. */
function changeLog(value: string) {
  const v = JSON.parse(value);
  return {
    entityType: v.entityType as string,
    urn: v.entityUrn?.string as string,
    changeType: v.changeType as string,
    aspectName: v.aspectName?.string as string,
    aspect: v.aspect ? JSON.parse(bytesText(v.aspect[GENERIC].value)) : null,
    previous: v.previousAspectValue ? JSON.parse(bytesText(v.previousAspectValue[GENERIC].value)) : null,
    runId: v.systemMetadata?.['com.linkedin.pegasus2avro.mxe.SystemMetadata']?.runId?.string as string | undefined,
    actor: v.created?.['com.linkedin.pegasus2avro.common.AuditStamp']?.actor as string,
  };
}

/** An Entity Change Event from a PlatformEvent_v1 value. */
function changeEvent(value: string) {
  const v = JSON.parse(value);
  assert.equal(v.name, 'entityChangeEvent');
  return JSON.parse(bytesText(v.payload.value)) as {
    entityType: string;
    entityUrn: string;
    category: string;
    operation: string;
    modifier?: string;
    parameters?: Record<string, unknown>;
    version: number;
  };
}

const offsetOf = (offsetId: string, topic: string): number => JSON.parse(Buffer.from(offsetId, 'base64').toString())[`${topic}-0`];

let seq = 0;
const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,events.${name}.${++seq},PROD)`;

for (const backend of await backends()) {
  describe(`DataHub's events API over the change log: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_RETENTION_SCHEDULE: 'off', ALMANAC_WEBHOOK_DELIVERY: 'false' },
    );

    const poll = (params: Record<string, string | number>, auth?: string): Promise<HttpResult> =>
      server.request('GET', `/openapi/v1/events/poll?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
        ...(auth !== undefined ? { auth } : {}),
      });

    /** The end of a topic now: where a consumer starting without an offset stands. */
    const tail = async (topic: string): Promise<string> => {
      const res = await poll({ topic, pollTimeoutSeconds: 0 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.count, 0);
      return res.json.offsetId;
    };

    /** Runs the change and returns the values each topic logged for it (of every entity), oldest first. */
    const logged = async (change: () => Promise<unknown>) => {
      const from: Record<string, string> = {
        [VERSIONED]: await tail(VERSIONED),
        [TIMESERIES]: await tail(TIMESERIES),
        [PLATFORM]: await tail(PLATFORM),
      };
      await change();
      const read = async (topic: string) => {
        const res = await poll({ topic, offsetId: from[topic]!, pollTimeoutSeconds: 0, limit: 5000 });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.count, res.json.events.length);
        for (const e of res.json.events) assert.equal(e.contentType, 'application/json');
        return res.json.events.map((e: { value: string }) => e.value) as string[];
      };
      return {
        versioned: (await read(VERSIONED)).map(changeLog),
        timeseries: (await read(TIMESERIES)).map(changeLog),
        platform: (await read(PLATFORM)).map(changeEvent),
      };
    };

    /** Every event of `topic` past `offsetId`, read `limit` a poll, each as `pick` reads it. */
    const pageThrough = async <T>(topic: string, offsetId: string, limit: number, pick: (value: string) => T): Promise<T[]> => {
      const out: T[] = [];
      for (let next = offsetId; ;) {
        const res = await poll({ topic, offsetId: next, limit, pollTimeoutSeconds: 0 });
        assert.equal(res.status, 200, res.text);
        if (res.json.count === 0) return out;
        assert.ok(res.json.count <= limit);
        next = res.json.offsetId;
        out.push(...res.json.events.map((e: { value: string }) => pick(e.value)));
      }
    };

    const ingest = async (...proposals: unknown[]) => {
      const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals, async: 'false' } });
      assert.equal(res.status, 200, res.text);
    };

    it('logs a new entity: its key and aspect on the versioned topic, and a LIFECYCLE CREATE', async () => {
      const urn = datasetUrn('create');
      const got = await logged(() => ingest(mcp(urn, 'status', { removed: false })));
      const mine = got.versioned.filter((m) => m.urn === urn);
      assert.deepEqual(mine.map((m) => m.aspectName).sort(), ['datasetKey', 'status']);
      const status = mine.find((m) => m.aspectName === 'status')!;
      assert.equal(status.changeType, 'UPSERT');
      assert.equal(status.entityType, 'dataset');
      assert.deepEqual(status.aspect, { removed: false });
      assert.equal(status.previous, null);
      assert.equal(status.actor, 'urn:li:corpuser:datahub');
      assert.deepEqual(
        got.platform.filter((e) => e.entityUrn === urn).map((e) => [e.category, e.operation, e.version]),
        [['LIFECYCLE', 'CREATE', 0]],
      );
      assert.deepEqual(got.timeseries, []);
    });

    it('logs nothing for a value written again, and the value replaced for a change', async () => {
      const urn = datasetUrn('change');
      await ingest(mcp(urn, 'datasetProperties', { description: 'first', customProperties: {}, tags: [] }));
      const same = await logged(() => ingest(mcp(urn, 'datasetProperties', { description: 'first', customProperties: {}, tags: [] })));
      assert.deepEqual(same.versioned, []);
      assert.deepEqual(same.platform, []);
      const changed = await logged(() =>
        ingest({
          ...mcp(urn, 'datasetProperties', { description: 'second', customProperties: {}, tags: [] }),
          systemMetadata: { runId: 'events-run' },
        }),
      );
      assert.equal(changed.versioned.length, 1);
      assert.equal(changed.versioned[0]!.previous.description, 'first');
      assert.equal(changed.versioned[0]!.aspect.description, 'second');
      assert.equal(changed.versioned[0]!.runId, 'events-run');
      const docs = changed.platform.filter((e) => e.category === 'DOCUMENTATION');
      assert.equal(docs.length, 1);
      assert.equal(docs[0]!.operation, 'MODIFY');
    });

    it('logs a PATCH that adds a tag, with the TAG event DataHub emits', async () => {
      const urn = datasetUrn('tag');
      await ingest(mcp(urn, 'status', { removed: false }));
      const got = await logged(() =>
        ingest(
          patchMcp(urn, 'globalTags', {
            arrayPrimaryKeys: TAG_KEYS,
            patch: [{ op: 'add', path: '/tags//urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }],
          }),
        ),
      );
      assert.deepEqual(
        got.versioned.map((m) => [m.aspectName, m.changeType]),
        [['globalTags', 'UPSERT']],
      );
      assert.deepEqual(
        got.platform.map((e) => [e.category, e.operation, e.modifier, e.parameters?.tagUrn]),
        [['TAG', 'ADD', 'urn:li:tag:pii', 'urn:li:tag:pii']],
      );
    });

    it('logs a deprecation set through GraphQL as a DEPRECATION event', async () => {
      const urn = datasetUrn('deprecation');
      await ingest(mcp(urn, 'status', { removed: false }));
      const got = await logged(() => gqlData(server, UPDATE_DEPRECATION, { input: { urn, deprecated: true, note: 'old' } }));
      assert.deepEqual(
        got.versioned.map((m) => m.aspectName),
        ['deprecation'],
      );
      assert.deepEqual(
        got.platform.map((e) => [e.category, e.operation]),
        [['DEPRECATION', 'MODIFY']],
      );
    });

    it("logs a field's description, edited or ingested, as DOCUMENTATION events of the schemaField, as DataHub's doc propagation reads them", async () => {
      const urn = datasetUrn('field-docs');
      const field = (fieldPath: string, extra: Record<string, unknown> = {}) => ({
        fieldPath,
        type: { type: { 'com.linkedin.schema.StringType': {} } },
        nativeDataType: 'varchar',
        ...extra,
      });
      const schema = (fields: unknown[]) =>
        mcp(urn, 'schemaMetadata', {
          schemaName: 'docs',
          platform: 'urn:li:dataPlatform:hive',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields,
        });
      const fieldUrn = (path: string) => `urn:li:schemaField:(${urn},${path})`;
      const fieldEvents = (got: Awaited<ReturnType<typeof logged>>) =>
        got.platform
          .filter((e) => e.entityType === 'schemaField')
          .map((e) => ({ entityUrn: e.entityUrn, category: e.category, operation: e.operation, modifier: e.modifier, parameters: e.parameters }));

      /** A field's DOCUMENTATION event: ingested ones have no modifier, edited ones the field path. */
      const doc = (path: string, operation: string, description: string, modifier?: string) => ({
        entityUrn: fieldUrn(path),
        category: 'DOCUMENTATION',
        operation,
        modifier,
        parameters: { fieldPath: path, parentUrn: urn, description },
      });

      // Ingested with the schema: DataHub's SchemaMetadataChangeEventGenerator.
      const created = await logged(() => ingest(schema([field('id', { description: 'The key' }), field('email')])));
      assert.deepEqual(fieldEvents(created), [doc('id', 'ADD', 'The key')]);
      // Its TECHNICAL_SCHEMA events stay the dataset's, naming the field.
      assert.deepEqual(
        created.platform.filter((e) => e.category === 'TECHNICAL_SCHEMA').map((e) => [e.entityType, e.entityUrn, e.operation, e.modifier]),
        [
          ['dataset', urn, 'ADD', fieldUrn('email')],
          ['dataset', urn, 'ADD', fieldUrn('id')],
        ],
      );
      // Edited (editableSchemaMetadata; DataHub's EditableSchemaMetadataChangeEventGenerator, the field path as modifier).
      const edit = (description: string) =>
        logged(() =>
          gqlData(server, UPDATE_DESCRIPTION, { input: { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'email', description } }),
        );
      const email = (operation: string, description: string) => doc('email', operation, description, 'email');
      assert.deepEqual(fieldEvents(await edit('Where to write')), [email('ADD', 'Where to write')]);
      assert.deepEqual(fieldEvents(await edit('Where to write, verified')), [email('MODIFY', 'Where to write, verified')]);
      // Ingested again with the key's description changed and a tag on email: one event each, both of the fields.
      const changed = await logged(() =>
        ingest(schema([field('id', { description: 'The primary key' }), field('email', { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } })])),
      );
      assert.deepEqual(fieldEvents(changed), [
        {
          entityUrn: fieldUrn('email'),
          category: 'TAG',
          operation: 'ADD',
          modifier: 'urn:li:tag:pii',
          parameters: { fieldPath: 'email', parentUrn: urn, tagUrn: 'urn:li:tag:pii', context: '{}' },
        },
        doc('id', 'MODIFY', 'The primary key'),
      ]);
      assert.deepEqual(
        changed.platform.filter((e) => e.entityType !== 'schemaField'),
        [],
      );
    });

    it('logs timeseries events on their own topic, every write of one', async () => {
      const urn = datasetUrn('profile');
      await ingest(mcp(urn, 'status', { removed: false }));
      const profile = mcp(urn, 'datasetProfile', { timestampMillis: 1_700_000_000_000, rowCount: 7 });
      const got = await logged(() => ingest(profile));
      assert.deepEqual(
        got.timeseries.map((m) => [m.urn, m.aspectName, m.changeType, m.aspect.rowCount]),
        [[urn, 'datasetProfile', 'UPSERT', 7]],
      );
      assert.deepEqual(got.versioned, []);
    });

    it('logs a batch of timeseries events in order and pages through them one at a time, each once', async () => {
      const urn = datasetUrn('profiles');
      await ingest(mcp(urn, 'status', { removed: false }));
      const offsetId = await tail(TIMESERIES);
      const counts = [11, 12, 13, 14, 15];
      await ingest(...counts.map((rowCount, i) => mcp(urn, 'datasetProfile', { timestampMillis: 1_700_000_000_000 + i, rowCount })));
      assert.deepEqual(await pageThrough(TIMESERIES, offsetId, 2, (v) => changeLog(v).aspect.rowCount), counts);
    });

    it('logs a soft delete, a reinstatement and a hard delete with their LIFECYCLE events', async () => {
      const urn = datasetUrn('delete');
      await ingest(mcp(urn, 'status', { removed: false }), mcp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:gone' }] }));
      const soft = await logged(() => ingest(mcp(urn, 'status', { removed: true })));
      assert.deepEqual(
        soft.platform.map((e) => [e.category, e.operation]),
        [['LIFECYCLE', 'SOFT_DELETE']],
      );
      const back = await logged(() => ingest(mcp(urn, 'status', { removed: false })));
      assert.deepEqual(
        back.platform.map((e) => [e.category, e.operation]),
        [['LIFECYCLE', 'REINSTATE']],
      );
      const hard = await logged(async () => {
        const res = await server.request('POST', '/entities?action=delete', { body: { urn } });
        assert.equal(res.status, 200, res.text);
      });
      assert.deepEqual(hard.versioned.map((m) => [m.aspectName, m.changeType]).sort(), [
        ['datasetKey', 'DELETE'],
        ['globalTags', 'DELETE'],
        ['status', 'DELETE'],
      ]);
      assert.deepEqual(hard.versioned.find((m) => m.aspectName === 'globalTags')!.previous, { tags: [{ tag: 'urn:li:tag:gone' }] });
      assert.deepEqual(hard.platform.map((e) => [e.category, e.operation]).sort(), [
        ['LIFECYCLE', 'HARD_DELETE'],
        ['TAG', 'REMOVE'],
      ]);
    });

    it('logs a rollback that restores an earlier value', async () => {
      const urn = datasetUrn('rollback');
      await ingest({ ...mcp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:kept' }] }), systemMetadata: { runId: 'events-rollback-1' } });
      await ingest({ ...mcp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:undone' }] }), systemMetadata: { runId: 'events-rollback-2' } });
      const got = await logged(async () => {
        const res = await server.request('POST', '/runs?action=rollback', { body: { runId: 'events-rollback-2', dryRun: false, safe: true } });
        assert.equal(res.status, 200, res.text);
      });
      const tags = got.versioned.filter((m) => m.aspectName === 'globalTags');
      assert.equal(tags.length, 1);
      assert.deepEqual(tags[0]!.aspect, { tags: [{ tag: 'urn:li:tag:kept' }] });
      assert.deepEqual(tags[0]!.previous, { tags: [{ tag: 'urn:li:tag:undone' }] });
      assert.deepEqual(got.platform.map((e) => [e.operation, e.modifier]).sort(), [
        ['ADD', 'urn:li:tag:kept'],
        ['REMOVE', 'urn:li:tag:undone'],
      ]);
    });

    it('pages through a topic with limit, each entry once, and answers an offset past the end with nothing', async () => {
      const from = await tail(VERSIONED);
      const urns = [datasetUrn('page'), datasetUrn('page'), datasetUrn('page')];
      for (const urn of urns) await ingest(mcp(urn, 'status', { removed: false }));
      const seen: string[] = [];
      let offsetId = from;
      for (let i = 0; i < 10; i++) {
        const res = await poll({ topic: VERSIONED, offsetId, limit: 1, pollTimeoutSeconds: 0 });
        assert.equal(res.status, 200, res.text);
        if (res.json.count === 0) break;
        assert.equal(res.json.count, 1);
        assert.ok(offsetOf(res.json.offsetId, VERSIONED) > offsetOf(offsetId, VERSIONED));
        offsetId = res.json.offsetId;
        seen.push(changeLog(res.json.events[0].value).urn);
      }
      assert.deepEqual([...new Set(seen)], urns);
      assert.equal(seen.length, 6);
    });

    it("pages PlatformEvent_v1 through the events of one change, a new schema's one per field, each once", async () => {
      const urn = datasetUrn('schema');
      const fields = ['id', 'name', 'email', 'created_at', 'country'].map((fieldPath) => ({
        fieldPath,
        nativeDataType: 'string',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
      }));
      const schema = {
        schemaName: 'users',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields,
      };
      const { platform: all } = await logged(() => ingest(mcp(urn, 'schemaMetadata', schema)));
      const added = all.filter((e) => e.category === 'TECHNICAL_SCHEMA' && e.operation === 'ADD').map((e) => e.parameters?.fieldPath);
      assert.deepEqual(added, fields.map((f) => f.fieldPath).sort());
      // Two at a time: the offset id names the event within the entry, so nothing is skipped or served twice.
      const offsetId = await tail(PLATFORM);
      await ingest(
        mcp(urn, 'schemaMetadata', { ...schema, fields: [...fields, ...['a', 'b', 'c'].map((fieldPath) => ({ ...fields[0]!, fieldPath }))] }),
      );
      assert.deepEqual(await pageThrough(PLATFORM, offsetId, 2, (v) => changeEvent(v).parameters?.fieldPath), ['a', 'b', 'c']);
    });

    it('answers a waiting poll as soon as a write commits', async () => {
      const offsetId = await tail(VERSIONED);
      const urn = datasetUrn('wake');
      const started = Date.now();
      const waiting = poll({ topic: VERSIONED, offsetId, pollTimeoutSeconds: 10 });
      await new Promise((r) => setTimeout(r, 300));
      await ingest(mcp(urn, 'status', { removed: false }));
      const res = await waiting;
      assert.equal(res.status, 200, res.text);
      assert.ok(res.json.count >= 1);
      assert.equal(changeLog(res.json.events[0].value).urn, urn);
      assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
    });

    it('waits out pollTimeoutSeconds when nothing comes, and starts a lookback at the window', async () => {
      const started = Date.now();
      const res = await poll({ topic: TIMESERIES, pollTimeoutSeconds: 1 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.count, 0);
      assert.ok(Date.now() - started >= 900);
      const back = await poll({ topic: VERSIONED, lookbackWindowDays: 1, pollTimeoutSeconds: 0, limit: 5000 });
      assert.equal(back.status, 200, back.text);
      assert.ok(back.json.count > 0);
    });

    it('resumes an offset that was pruned from the oldest kept entry, and says so', async () => {
      const old = await tail(VERSIONED);
      await ingest(mcp(datasetUrn('pruned'), 'status', { removed: false }));
      assert.ok((await server.app.services.store.changeEvents.pruneEventLog(Date.now() + 1)) > 0);
      const urn = datasetUrn('kept');
      await ingest(mcp(urn, 'status', { removed: false }));
      const res = await poll({ topic: VERSIONED, offsetId: old, pollTimeoutSeconds: 0 });
      assert.equal(res.status, 200, res.text);
      assert.match(res.json.warning, /older than the change log keeps.*resumed from the oldest kept entry/);
      assert.deepEqual([...new Set(res.json.events.map((e: { value: string }) => changeLog(e.value).urn))], [urn]);
    });

    it('refuses bad parameters with a 400 naming each', async () => {
      const cases: Array<[Record<string, string | number>, RegExp]> = [
        [{}, /'topic' is required/],
        [{ topic: 'MetadataChangeEvent_v4' }, /'topic': unknown topic/],
        [{ topic: VERSIONED, offsetId: 'not base64 json' }, /'offsetId'/],
        [
          { topic: VERSIONED, offsetId: Buffer.from(JSON.stringify({ [`${PLATFORM}-0`]: 1 })).toString('base64') },
          /'offsetId'.*no MetadataChangeLog_Versioned_v1-0/,
        ],
        [{ topic: VERSIONED, offsetId: Buffer.from(JSON.stringify({ [`${VERSIONED}-0`]: 'x' })).toString('base64') }, /'offsetId'/],
        [{ topic: VERSIONED, limit: 'many' }, /'limit' must be an integer/],
        [{ topic: VERSIONED, limit: 0 }, /'limit' must be at least 1/],
        [{ topic: VERSIONED, pollTimeoutSeconds: -1 }, /'pollTimeoutSeconds' must be at least 0/],
        [{ topic: VERSIONED, pollTimeoutSeconds: 1.5 }, /'pollTimeoutSeconds' must be an integer/],
        [{ topic: VERSIONED, lookbackWindowDays: 'week' }, /'lookbackWindowDays' must be an integer/],
        [{ topic: VERSIONED, other: 1 }, /Unknown query parameter 'other'/],
      ];
      for (const [params, message] of cases) {
        const res = await poll(params);
        assert.equal(res.status, 400, `${JSON.stringify(params)}: ${res.text}`);
        assert.match(res.text, message, JSON.stringify(params));
      }
      // Above DataHub's maximums, limit and pollTimeoutSeconds are capped, as DataHub caps them.
      const capped = await poll({ topic: VERSIONED, limit: 1_000_000, pollTimeoutSeconds: 0 });
      assert.equal(capped.status, 200, capped.text);
    });

    it('answers 403 to a caller without the topic privilege, and 401 to no caller', async () => {
      const reader = await actorWithRole(server, 'events-reader', 'Reader');
      for (const topic of [PLATFORM, VERSIONED, TIMESERIES]) {
        const res = await poll({ topic, pollTimeoutSeconds: 0 }, reader);
        assert.equal(res.status, 403, `${topic}: ${res.text}`);
      }
      const none = await server.request('GET', `/openapi/v1/events/poll?topic=${PLATFORM}&pollTimeoutSeconds=0`, { auth: null });
      assert.equal(none.status, 401, none.text);
    });
  });
}

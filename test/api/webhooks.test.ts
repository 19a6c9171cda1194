import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities } from '../support/curation.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { createDataset as createDatasetWithFields, gql, gqlData } from '../support/graphql.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createDataset, datasetUrn, DAY, hourly, ingestEvents, startTruncation, T0 } from '../support/truncation.ts';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts';

const SECRET = 'a webhook secret of some length';
const CREATE = `mutation($input: CreateWebhookSubscriptionInput!) {
  createWebhookSubscription(input: $input) { secret subscription { id url categories entityTypes createdBy } } }`;
const DELIVERIES = `query($id: String, $state: String) { webhookDeliveries(subscriptionId: $id, state: $state, count: 100) {
  total deliveries { id subscriptionId eventId state attempts lastStatusCode lastError deliveredAt entityUrn category } } }`;
const BATCH = 'mutation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';

/** What a receiver checks: the HMAC of `<timestamp>.<body>` under the secret, compared in constant time. */
function signatureVerifies(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const expected = Buffer.from(`sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-almanac-timestamp']}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(headers['x-almanac-signature-256']));
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

for (const backend of await backends()) {
  describe(`change events delivered by webhooks: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let receiver: WebhookReceiver;
    let subscription: string;

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
      await db?.drop();
    });
    beforeEach(async () => {
      // One subscription per test, to a receiver of its own, to the categories these tests are about (an unfiltered
      // one would also get each dataset's LIFECYCLE and the like).
      if (subscription) await gqlData(server, 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }', { id: subscription });
      await receiver?.close();
      receiver = await startWebhookReceiver();
      const data = await gqlData(server, CREATE, { input: { url: receiver.url, secret: SECRET, categories: ['DEPRECATION', 'RUN'] } });
      subscription = data.createWebhookSubscription.subscription.id;
    });

    const deliveries = async (state?: string) =>
      (await gqlData(server, DELIVERIES, { id: subscription, ...(state ? { state } : {}) })).webhookDeliveries;

    it("sends a batch deprecation of three datasets as three signed events in DataHub's EntityChangeEvent_v1 shape", async () => {
      const urns = ['a', 'b', 'c'].map((n) => datasetUrn(`hooks.${n}`));
      for (const urn of urns)
        await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(urn, 'status', { removed: false }) } });
      const decommission = Date.UTC(2027, 0, 31);
      await gqlData(server, BATCH, {
        input: { resources: urns.map((resourceUrn) => ({ resourceUrn })), deprecated: true, note: 'use hooks.d', decommissionTime: decommission },
      });
      const got = await receiver.waitFor(3);
      assert.deepEqual(got.map((d) => d.json.entityUrn).sort(), [...urns].sort());
      for (const d of got) {
        const { auditStamp, ...rest } = d.json;
        assert.deepEqual(rest, {
          entityType: 'dataset',
          entityUrn: d.json.entityUrn,
          category: 'DEPRECATION',
          operation: 'MODIFY',
          parameters: { status: 'DEPRECATED', note: 'use hooks.d', timestamp: String(decommission) },
          version: 0,
        });
        assert.equal(auditStamp.actor, 'urn:li:corpuser:datahub');
        assert.ok(Math.abs(auditStamp.time - Date.now()) < 60_000);
        assert.equal(d.headers['content-type'], 'application/json');
        assert.equal(d.headers['x-almanac-event-type'], 'EntityChangeEvent_v1');
        assert.ok(signatureVerifies(SECRET, d.headers, d.body), 'the signature verifies with the secret');
        assert.ok(!signatureVerifies('another secret entirely', d.headers, d.body));
      }
      assert.equal(new Set(got.map((d) => d.headers['x-almanac-delivery'])).size, 3);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.length, 3, 'each event once');
      const log = await deliveries();
      assert.equal(log.total, 3);
      assert.deepEqual(
        log.deliveries.map((d: { state: string; attempts: number; lastStatusCode: number }) => [d.state, d.attempts, d.lastStatusCode]),
        [
          ['delivered', 1, 200],
          ['delivered', 1, 200],
          ['delivered', 1, 200],
        ],
      );
      assert.deepEqual(log.deliveries.map((d: { id: string }) => d.id).sort(), got.map((d) => d.headers['x-almanac-delivery']).sort());
      // Undeprecating is DataHub's ACTIVE event; a change of note while deprecated is one too (Almanac's addition).
      await gqlData(server, BATCH, { input: { resources: [{ resourceUrn: urns[0] }], deprecated: true, note: 'use hooks.e' } });
      await gqlData(server, BATCH, { input: { resources: [{ resourceUrn: urns[0] }], deprecated: false } });
      const more = (await receiver.waitFor(5)).slice(3);
      assert.deepEqual(
        more.map((d) => d.json.parameters),
        [{ status: 'DEPRECATED', note: 'use hooks.e' }, { status: 'ACTIVE' }],
      );
    });

    it("sends a dataset field's deprecation as an event of its schemaField", async () => {
      const urn = datasetUrn('hooks.fields');
      const schema = {
        schemaName: 'hooks.fields',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: [{ fieldPath: 'email', type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'varchar' }],
      };
      await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(urn, 'schemaMetadata', schema) } });
      await gqlData(server, BATCH, {
        input: { resources: [{ resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'email' }], deprecated: true, note: 'PII' },
      });
      const [d] = await receiver.waitFor(1);
      assert.deepEqual(
        [d!.json.entityType, d!.json.entityUrn, d!.json.category, d!.json.parameters],
        ['schemaField', `urn:li:schemaField:(${urn},email)`, 'DEPRECATION', { status: 'DEPRECATED', note: 'PII' }],
      );
    });

    it('retries a delivery the receiver refused, and logs it delivered after the second attempt', async () => {
      receiver.answer([500]);
      const urn = datasetUrn('hooks.retried');
      await createDataset(server.request, urn);
      await gqlData(server, 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }', {
        input: { urn, deprecated: true, note: 'retry me' },
      });
      const [first, second] = await receiver.waitFor(2);
      assert.deepEqual([first!.status, second!.status], [500, 200]);
      assert.equal(first!.headers['x-almanac-delivery'], second!.headers['x-almanac-delivery'], 'the same delivery id on each attempt');
      assert.equal(first!.body, second!.body);
      const [logged] = (await deliveries()).deliveries;
      assert.deepEqual([logged.state, logged.attempts, logged.lastStatusCode, logged.lastError, logged.entityUrn], ['delivered', 2, 200, null, urn]);
    });

    it('sends the end of a truncation task as a RUN event of a process instance', async () => {
      const urn = datasetUrn('hooks.series');
      await createDataset(server.request, urn);
      await ingestEvents(server.request, urn, hourly(3, 4));
      const task = await startTruncation(server.request, { endTimeMillis: T0 + 2 * DAY });
      const [d] = await receiver.waitFor(1);
      assert.equal(d!.json.entityType, 'dataProcessInstance');
      assert.equal(d!.json.category, 'RUN');
      assert.equal(d!.json.operation, 'COMPLETED');
      assert.equal(d!.json.entityUrn, `urn:li:dataProcessInstance:almanac-truncation-${task.split(':')[1]}`);
      assert.equal(d!.json.parameters.runResult, 'SUCCESS');
      assert.equal(d!.json.parameters.taskKind, 'truncation');
      assert.equal(d!.json.parameters.rowsDeleted, 8);
      assert.equal(d!.json.parameters.aspect, 'datasetProfile');
    });

    it('sends the end of a retention run as a RUN event of a process instance', async () => {
      const res = await server.request('POST', '/api/retention/run', { body: {} });
      assert.equal(res.status, 202, res.text);
      const [d] = await receiver.waitFor(1);
      assert.equal(d!.json.entityType, 'dataProcessInstance');
      assert.match(d!.json.entityUrn, /^urn:li:dataProcessInstance:almanac-retention-\d+$/);
      assert.deepEqual(
        [d!.json.category, d!.json.operation, d!.json.parameters.taskKind, d!.json.parameters.runResult],
        ['RUN', 'COMPLETED', 'retention', 'SUCCESS'],
      );
    });

    it("sends curation edits as DataHub's Entity Change Events, honouring each subscription's categories and entity types", async () => {
      const [gold, term, domain, alice] = ['urn:li:tag:gold', 'urn:li:glossaryTerm:Revenue', 'urn:li:domain:hooks', 'urn:li:corpuser:hook-alice'];
      const urn = datasetUrn('hooks.curated');
      await createEntities(server, gold, term, domain, alice);
      await createDatasetWithFields(server, urn, ['email']);
      // Owners by the name DataHub's docs give them (OWNER), kept as the one its events carry (OWNERSHIP).
      const onDataset = await startWebhookReceiver();
      const onFields = await startWebhookReceiver();
      const made = await gqlData(server, CREATE, {
        input: { url: onDataset.url, categories: ['TAG', 'OWNER', 'DOMAIN', 'DOCUMENTATION', 'GLOSSARY_TERM'], entityTypes: ['dataset'] },
      });
      assert.deepEqual(made.createWebhookSubscription.subscription.categories, ['TAG', 'OWNERSHIP', 'DOMAIN', 'DOCUMENTATION', 'GLOSSARY_TERM']);
      const fields = await gqlData(server, CREATE, { input: { url: onFields.url, entityTypes: ['schemaField'] } });
      try {
        const field = { resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'email' };
        const owner = { ownerUrn: alice, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' };
        for (const [mutation, variables] of [
          ['mutation($input: AddTagsInput!) { addTags(input: $input) }', { input: { resourceUrn: urn, tagUrns: [gold] } }],
          ['mutation($input: TagAssociationInput!) { removeTag(input: $input) }', { input: { resourceUrn: urn, tagUrn: gold } }],
          ['mutation($input: AddOwnersInput!) { addOwners(input: $input) }', { input: { resourceUrn: urn, owners: [owner] } }],
          ['mutation($input: RemoveOwnerInput!) { removeOwner(input: $input) }', { input: { resourceUrn: urn, ownerUrn: alice } }],
          ['mutation($e: String!, $d: String!) { setDomain(entityUrn: $e, domainUrn: $d) }', { e: urn, d: domain }],
          ['mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', { input: { resourceUrn: urn, description: 'Curated' } }],
          ['mutation($input: AddTermsInput!) { addTerms(input: $input) }', { input: { termUrns: [term], ...field } }],
          ['mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', { input: { description: 'Where to write', ...field } }],
        ] as const)
          await gqlData(server, mutation, variables);
        const datasetEvents = await onDataset.waitFor(6);
        const fieldEvents = await onFields.waitFor(2);
        await new Promise((r) => setTimeout(r, 500));
        // Deliveries run concurrently, so in any order.
        const summary = (received: readonly ReceivedDelivery[]) =>
          received
            .map((d) => [d.json.entityType, d.json.category, d.json.operation, d.json.modifier])
            .sort((a, b) => String(a).localeCompare(String(b)));
        const sorted = (events: unknown[][]) => [...events].sort((a, b) => String(a).localeCompare(String(b)));
        assert.deepEqual(
          summary(onDataset.received),
          sorted([
            ['dataset', 'TAG', 'ADD', gold],
            ['dataset', 'TAG', 'REMOVE', gold],
            ['dataset', 'OWNERSHIP', 'ADD', alice],
            ['dataset', 'OWNERSHIP', 'REMOVE', alice],
            ['dataset', 'DOMAIN', 'ADD', domain],
            ['dataset', 'DOCUMENTATION', 'ADD', undefined],
          ]),
        );
        assert.deepEqual(
          summary(onFields.received),
          sorted([
            ['schemaField', 'GLOSSARY_TERM', 'ADD', term],
            ['schemaField', 'DOCUMENTATION', 'ADD', 'email'],
          ]),
        );
        const byCategory = (events: typeof datasetEvents, category: string, operation = 'ADD') =>
          events.find((d) => d.json.category === category && d.json.operation === operation)!.json;
        const { auditStamp, ...tagAdded } = byCategory(datasetEvents, 'TAG');
        assert.deepEqual(tagAdded, {
          entityType: 'dataset',
          entityUrn: urn,
          category: 'TAG',
          operation: 'ADD',
          modifier: gold,
          parameters: { tagUrn: gold, context: '{}', sourceDetails: '{}' },
          version: 0,
        });
        assert.equal(auditStamp.actor, 'urn:li:corpuser:datahub');
        const fieldUrn = `urn:li:schemaField:(${urn},email)`;
        assert.equal(byCategory(fieldEvents, 'DOCUMENTATION').entityUrn, fieldUrn);
        assert.deepEqual(byCategory(fieldEvents, 'DOCUMENTATION').parameters, { fieldPath: 'email', parentUrn: urn, description: 'Where to write' });
        assert.deepEqual(byCategory(fieldEvents, 'GLOSSARY_TERM').parameters, { fieldPath: 'email', parentUrn: urn, termUrn: term, context: '{}' });
        // The DEPRECATION and RUN subscription heard none of it.
        assert.equal(receiver.received.length, 0);
      } finally {
        for (const id of [made, fields].map((m) => m.createWebhookSubscription.subscription.id))
          await gqlData(server, 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }', { id });
        await onDataset.close();
        await onFields.close();
      }
    });

    it('does not send to a refused address a subscription made before the rule refused it', async () => {
      // As a row written by an older version would be: the URL was valid when it was made.
      const id = 'legacy-nat64';
      await server.app.services.store.changeEvents.createWebhookSubscription({
        id,
        url: 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
        sealedSecret: server.app.services.webhookSecrets.seal(SECRET),
        categories: null,
        entityTypes: null,
        createdBy: 'urn:li:corpuser:datahub',
        createdAt: Date.now(),
      });
      try {
        const urn = datasetUrn('hooks.legacy');
        await createDataset(server.request, urn);
        await gqlData(server, 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }', {
          input: { urn, deprecated: true, note: 'not there' },
        });
        let logged: { state: string; attempts: number; lastStatusCode: number | null; lastError: string | null } | undefined;
        for (const until = Date.now() + 10_000; !logged?.attempts && Date.now() < until; await new Promise((r) => setTimeout(r, 50)))
          [logged] = (await gqlData(server, DELIVERIES, { id })).webhookDeliveries.deliveries;
        assert.deepEqual(
          [logged?.state, logged?.attempts, logged?.lastStatusCode, logged?.lastError],
          [
            'pending',
            1,
            null,
            `64:ff9b::a9fe:a9fe is the NAT64 form of 169.254.169.254, a link-local, unspecified, multicast or broadcast address; not sent`,
          ],
        );
      } finally {
        await gqlData(server, 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }', { id });
      }
    });

    it('never returns a secret after creation, validates targets and filters, and lets only Admins subscribe', async () => {
      const generated = await gqlData(server, CREATE, { input: { url: receiver.url, categories: ['RUN'], entityTypes: ['dataProcessInstance'] } });
      assert.match(generated.createWebhookSubscription.secret, /^[A-Za-z0-9_-]{43}$/);
      const listed = await gql(server, '{ listWebhookSubscriptions { id url categories entityTypes } }');
      assert.doesNotMatch(listed.text, new RegExp(SECRET));
      assert.doesNotMatch(listed.text, new RegExp(generated.createWebhookSubscription.secret));
      assert.deepEqual(
        listed.json.data.listWebhookSubscriptions.find((s: { id: string }) => s.id === generated.createWebhookSubscription.subscription.id),
        { id: generated.createWebhookSubscription.subscription.id, url: receiver.url, categories: ['RUN'], entityTypes: ['dataProcessInstance'] },
      );
      for (const [input, message] of [
        [{ url: 'ftp://example.com/hook' }, /^url: must be http or https/],
        [{ url: 'not a url' }, /^url: not a URL/],
        [{ url: 'http://169.254.169.254/latest/meta-data' }, /^url: 169\.254\.169\.254 is a link-local/],
        // The same address written as a number, and as an IPv4-mapped IPv6 address.
        [{ url: 'http://2852039166/latest/meta-data' }, /^url: 169\.254\.169\.254 is a link-local/],
        [{ url: 'http://[::ffff:169.254.169.254]/' }, /^url: ::ffff:a9fe:a9fe is a link-local/],
        // Cloud metadata services outside the link-local ranges: AWS over IPv6, Alibaba.
        [{ url: 'http://[fd00:ec2::254]/latest/meta-data' }, /^url: fd00:ec2::254 is a cloud metadata address/],
        [{ url: 'http://100.100.100.200/latest/meta-data' }, /^url: 100\.100\.100\.200 is a cloud metadata address/],
        // IPv6 forms a translator or tunnel turns back into 169.254.169.254.
        [{ url: 'http://[64:ff9b::a9fe:a9fe]/' }, /^url: 64:ff9b::a9fe:a9fe is the NAT64 form of 169\.254\.169\.254, a link-local/],
        [{ url: 'http://[64:ff9b:1::a9fe:a9fe]/' }, /^url: 64:ff9b:1::a9fe:a9fe is the NAT64 form of 169\.254\.169\.254/],
        [{ url: 'http://[::169.254.169.254]/' }, /^url: ::a9fe:a9fe is the IPv4-compatible form of 169\.254\.169\.254, a link-local/],
        [{ url: 'http://[2002:a9fe:a9fe::]/' }, /^url: 2002:a9fe:a9fe:: is the 6to4 form of 169\.254\.169\.254, a link-local/],
        [{ url: 'http://[2001:0:a9fe:a9fe::]/' }, /^url: 2001:0:a9fe:a9fe:: is the Teredo server form of 169\.254\.169\.254/],
        [{ url: 'http://[64:ff9b::6464:64c8]/' }, /^url: 64:ff9b::6464:64c8 is the NAT64 form of 100\.100\.100\.200, a cloud metadata address/],
        [{ url: 'http://user:pw@example.com/hook' }, /^url: must not carry credentials/],
        [{ url: receiver.url, secret: 'short' }, /^secret: a string of 16 to 256 characters/],
        [{ url: receiver.url, categories: ['TAG', 'TAGS'] }, /^categories: unknown value TAGS \(one of TAG, GLOSSARY_TERM, OWNERSHIP, /],
        [{ url: receiver.url, entityTypes: ['notAType'] }, /^entityTypes: unknown value notAType/],
      ] as const) {
        const res = await gql(server, CREATE, { input });
        assert.match(res.json.errors?.[0]?.message ?? '', message, res.text);
        assert.equal(res.json.errors[0].extensions.code, 400);
      }
      // Loopback and private targets stay allowed, in every spelling, and so do IPv6 forms of allowed IPv4 addresses.
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://[::1]:9/hook',
        'http://10.1.2.3:9/hook',
        'http://192.168.0.10:9/hook',
        'http://100.64.0.1:9/hook',
        'http://[fd00::1]:9/hook',
        'http://[::ffff:10.1.2.3]:9/hook',
        'http://[64:ff9b::10.1.2.3]:9/hook',
      ]) {
        const made = await gql(server, CREATE, { input: { url } });
        const id = made.json.data?.createWebhookSubscription?.subscription?.id;
        assert.ok(id, `${url} is allowed: ${made.text}`);
        await gqlData(server, 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }', { id });
      }
      const editor = await actorWithRole(server, 'hook-editor', 'Editor');
      const refused = await gql(server, CREATE, { input: { url: receiver.url } }, { auth: editor });
      assert.deepEqual(refused.json.errors?.[0]?.extensions, { code: 403, type: 'UNAUTHORIZED' });
      assert.equal(
        (
          await gqlData(server, 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }', {
            id: generated.createWebhookSubscription.subscription.id,
          })
        ).deleteWebhookSubscription,
        true,
      );
    });
  });
}

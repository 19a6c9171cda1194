import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { writeVersions } from '../support/timeline.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,gql-timeline.${name},PROD)`;
const ADMIN = 'urn:li:corpuser:datahub';
const owner = (who: string) => ({ owner: `urn:li:corpuser:${who}`, type: 'TECHNICAL_OWNER' });

// DataHub's UI document (datahub-web-react/src/graphql/timeline.graphql), as its change history sends it.
const GET_TIMELINE = `query getTimeline($input: GetTimelineInput!) {
  getTimeline(input: $input) {
    changeTransactions {
      timestampMillis lastSemanticVersion versionStamp changeType actor
      changes { urn category operation modifier parameters { key value } auditStamp { actor time } description }
    }
  }
}`;

/* eslint-disable @typescript-eslint/no-explicit-any */
for (const backend of await backends()) {
  describe(`GraphQL getTimeline: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const timeline = async (input: Record<string, unknown>): Promise<any[]> =>
      ((await gqlData(server, GET_TIMELINE, { input })) as any).getTimeline.changeTransactions;

    it("answers the UI's document with DataHub's mapping of each transaction and change", async () => {
      const urn = ds('owners');
      await writeVersions(server, urn, { ownership: { owners: [owner('alice')] } }, { ownership: { owners: [owner('bob')] } });
      const txns = await timeline({ urn, changeCategories: ['OWNERSHIP'] });
      assert.equal(txns.length, 2);
      assert.deepEqual(
        txns.map((t) => [t.lastSemanticVersion, t.versionStamp, t.changeType, t.actor]),
        [
          ['0.0.0-computed', 'none', 'MODIFY', ADMIN],
          ['0.1.0-computed', 'none', 'MODIFY', ADMIN],
        ],
      );
      assert.ok(txns[1].timestampMillis > txns[0].timestampMillis);
      assert.deepEqual(
        txns[1].changes.map((c: any) => [c.category, c.operation, c.modifier]),
        [
          ['OWNERSHIP', 'ADD', 'urn:li:corpuser:bob'],
          ['OWNERSHIP', 'REMOVE', 'urn:li:corpuser:alice'],
        ],
      );
      const added = txns[1].changes[0];
      assert.equal(added.urn, urn);
      assert.deepEqual(added.auditStamp, { actor: ADMIN, time: txns[1].timestampMillis });
      assert.match(added.description, /bob/);
      // Parameters are key/value strings, as DataHub's mapper writes them.
      assert.ok(added.parameters.length > 0);
      assert.ok(added.parameters.every((p: any) => typeof p.key === 'string' && typeof p.value === 'string'));
      assert.ok(added.parameters.some((p: any) => p.value === 'urn:li:corpuser:bob'));
    });

    it('reads every category it can name when none is asked for, and leaves out what GraphQL cannot name', async () => {
      const urn = ds('all');
      await writeVersions(
        server,
        urn,
        { ownership: { owners: [owner('carol')] }, globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } },
        { deprecation: { deprecated: true, note: 'gone soon', actor: ADMIN } },
      );
      const txns = await timeline({ urn });
      const categories = new Set(txns.flatMap((t) => t.changes.map((c: any) => c.category)));
      assert.deepEqual([...categories].sort(), ['OWNERSHIP', 'TAG']);
      // The deprecation-only transaction has no change GraphQL can name, so it is left out, as DataHub leaves out empty ones.
      assert.equal(txns.length, 1);
    });

    it("reports the domain set, replaced and cleared, as DataHub's single-domain differ does", async () => {
      const urn = ds('domains');
      const eng = 'urn:li:domain:engineering';
      const mkt = 'urn:li:domain:marketing';
      await writeVersions(
        server,
        urn,
        { domains: { domains: [eng] } },
        { domains: { domains: [mkt], domainAssociations: [{ domain: mkt, context: 'moved by a test' }] } },
        { domains: { domains: [] } },
      );
      const txns = await timeline({ urn, changeCategories: ['DOMAIN'] });
      assert.deepEqual(
        txns.map((t) => t.changes.map((c: any) => `${c.operation} ${c.modifier}`)),
        [[`ADD ${eng}`], [`REMOVE ${eng}`, `ADD ${mkt}`], [`REMOVE ${mkt}`]],
      );
      const added = txns[1].changes[1];
      assert.equal(added.description, `Domain 'marketing' added to entity '${urn}'.`);
      assert.deepEqual(Object.fromEntries(added.parameters.map((p: any) => [p.key, p.value])), {
        domainUrn: mkt,
        context: 'moved by a test',
        sourceDetails: '{}',
      });
      // The same events on DataHub's REST timeline.
      const rest = await server.request('GET', `/openapi/v2/timeline/v1/${encodeURIComponent(urn)}?categories=DOMAIN&startTime=0`);
      assert.equal(rest.status, 200, rest.text);
      assert.deepEqual(
        rest.json.map((t: any) => t.changeEvents.map((e: any) => `${e.operation} ${e.modifier} ${e.semVerChange}`)),
        [[`ADD ${eng} MINOR`], [`REMOVE ${eng} MINOR`, `ADD ${mkt} MINOR`], [`REMOVE ${mkt} MINOR`]],
      );
    });

    it("reports applications added and removed, in urn order, as DataHub's applications differ does", async () => {
      const urn = ds('applications');
      const [a, b, c] = ['urn:li:application:alpha', 'urn:li:application:beta', 'urn:li:application:gamma'];
      await writeVersions(server, urn, { applications: { applications: [b, a] } }, { applications: { applications: [c, a] } });
      const txns = await timeline({ urn, changeCategories: ['APPLICATION'] });
      assert.deepEqual(
        txns.map((t) => t.changes.map((e: any) => `${e.operation} ${e.modifier}`)),
        [
          [`ADD ${a}`, `ADD ${b}`],
          [`REMOVE ${b}`, `ADD ${c}`],
        ],
      );
      assert.equal(txns[1].changes[1].description, `Application 'gamma' added to entity '${urn}'.`);
      assert.equal(txns[1].changes[1].parameters, null);
    });

    it("reports the documentation of glossary terms, domains and data products, and a data product's assets", async () => {
      const term = 'urn:li:glossaryTerm:gql-timeline.revenue';
      await writeVersions(
        server,
        term,
        { glossaryTermInfo: { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' } },
        {
          glossaryTermInfo: { name: 'Net revenue', definition: 'Money in, less refunds ($&)', termSource: 'INTERNAL' },
        },
      );
      assert.deepEqual(
        (await timeline({ urn: term, changeCategories: ['DOCUMENTATION'] })).map((t) =>
          t.changes.map((c: any) => `${c.operation}: ${c.description}`),
        ),
        [
          [`ADD: Name for '${term}' has been set: 'Revenue'.`, `ADD: Documentation for '${term}' has been added: 'Money in'.`],
          [
            `MODIFY: Name of '${term}' has been changed from 'Revenue' to 'Net revenue'.`,
            `MODIFY: Documentation of '${term}' has been changed from 'Money in' to 'Money in, less refunds ($&)'.`,
          ],
        ],
      );
      const domain = 'urn:li:domain:gql-timeline-finance';
      await writeVersions(server, domain, { domainProperties: { name: 'Finance' } }, { domainProperties: { name: 'Finance', description: 'Books' } });
      assert.deepEqual(
        (await timeline({ urn: domain })).map((t) => t.changes.map((c: any) => `${c.category} ${c.operation}: ${c.description}`)),
        [
          [`DOCUMENTATION ADD: Name for '${domain}' has been set: 'Finance'.`],
          [`DOCUMENTATION ADD: Description for '${domain}' has been added: 'Books'.`],
        ],
      );
      const product = 'urn:li:dataProduct:gql-timeline-orders';
      const [a1, a2] = [ds('asset1'), ds('asset2')];
      await writeVersions(
        server,
        product,
        { dataProductProperties: { name: 'Orders', assets: [{ destinationUrn: a2 }] } },
        { dataProductProperties: { assets: [{ destinationUrn: a1 }] } },
      );
      assert.deepEqual(
        (await timeline({ urn: product, changeCategories: ['DOCUMENTATION', 'ASSET_MEMBERSHIP'] })).map((t) =>
          t.changes.map((c: any) => `${c.category} ${c.operation} ${c.modifier ?? '-'}`),
        ),
        [
          ['DOCUMENTATION ADD -', `ASSET_MEMBERSHIP ADD ${a2}`],
          ['DOCUMENTATION REMOVE -', `ASSET_MEMBERSHIP ADD ${a1}`, `ASSET_MEMBERSHIP REMOVE ${a2}`],
        ],
      );
    });

    it("reports structured properties assigned, re-valued and removed, as DataHub's differ does", async () => {
      const urn = ds('structured');
      const [tier, cost] = ['urn:li:structuredProperty:io.acryl.tier', 'urn:li:structuredProperty:io.acryl.cost'];
      // Values are checked against their definitions, as DataHub checks them.
      const define = (urn: string, valueType: string, cardinality: string) =>
        mcp(
          urn,
          'propertyDefinition',
          { qualifiedName: urn.slice('urn:li:structuredProperty:'.length), valueType, cardinality, entityTypes: [] },
          'structuredProperty',
        );
      await ingest(server, define(tier, 'urn:li:dataType:datahub.string', 'SINGLE'), define(cost, 'urn:li:dataType:datahub.number', 'MULTIPLE'));
      await writeVersions(
        server,
        urn,
        { structuredProperties: { properties: [{ propertyUrn: tier, values: [{ string: 'gold' }] }] } },
        {
          structuredProperties: {
            properties: [
              { propertyUrn: tier, values: [{ string: 'silver' }] },
              { propertyUrn: cost, values: [{ double: 3 }, { double: 2.5 }] },
            ],
          },
        },
        { structuredProperties: { properties: [{ propertyUrn: cost, values: [{ double: 3 }, { double: 2.5 }] }] } },
      );
      const txns = await timeline({ urn, changeCategories: ['STRUCTURED_PROPERTY'] });
      assert.deepEqual(
        txns.map((t) => t.changes.map((c: any) => `${c.operation} ${c.modifier}`)),
        [[`ADD ${tier}`], [`ADD ${cost}`, `MODIFY ${tier}`], [`REMOVE ${tier}`]],
      );
      const params = (c: any) => (c.parameters === null ? null : Object.fromEntries(c.parameters.map((p: any) => [p.key, p.value])));
      assert.deepEqual(params(txns[1].changes[0]), { propertyUrn: cost, propertyValues: '[3.0,2.5]', sourceDetails: '{}' });
      assert.deepEqual(params(txns[1].changes[1]), { propertyUrn: tier, propertyValues: '["silver"]', sourceDetails: '{}' });
      assert.equal(txns[1].changes[1].description, `Structured property 'io.acryl.tier' added to entity '${urn}'.`);
      assert.equal(params(txns[2].changes[0]), null);
    });

    it('answers an empty list for an entity with no history', async () => {
      assert.deepEqual(await timeline({ urn: ds('nothing') }), []);
    });

    it('refuses a category this server does not answer, naming it, and a malformed urn', async () => {
      const res = await gql(server, GET_TIMELINE, { input: { urn: ds('x'), changeCategories: ['RELATED_ENTITIES'] } });
      assert.match(res.json.errors?.[0]?.message ?? '', /RELATED_ENTITIES/, res.text);
      assert.equal(res.json.errors[0].extensions.code, 400);
      const bad = await gql(server, GET_TIMELINE, { input: { urn: 'not-a-urn' } });
      assert.equal(bad.json.errors?.[0]?.extensions?.code, 400, bad.text);
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:mysql,${name},PROD)`;
const ORDERS = ds('shop.public.orders');
const SCHEMA = 'urn:li:container:SCHEMA';
const DB = 'urn:li:container:DB';
const CHART = 'urn:li:chart:(looker,sales)';
const DASHBOARD = 'urn:li:dashboard:(looker,overview)';
const PARENT_DOMAIN = 'urn:li:domain:commerce';
const CHILD_DOMAIN = 'urn:li:domain:shop';
const NODE = 'urn:li:glossaryNode:Finance';
const TERM = 'urn:li:glossaryTerm:Finance.Revenue';
const PRODUCT = 'urn:li:dataProduct:orders-product';
const GROUP = 'urn:li:corpGroup:analysts';
const INCIDENT = 'urn:li:incident:late-orders';
const ASSERTION = 'urn:li:assertion:orders-not-empty';
const ML_MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)';
const RUN = 'urn:li:dataProcessInstance:run-1';
const FORM = 'urn:li:form:quality';
const stamp = { time: 1767225600000, actor: 'urn:li:corpuser:datahub' };
const DAY = 86_400_000;
const daysAgo = (n: number) => Math.floor(Date.now() / DAY) * DAY - n * DAY;
const usage = (days: number, queries: number, users: Record<string, number>) => ({
  timestampMillis: daysAgo(days),
  eventGranularity: { unit: 'DAY', multiple: 1 },
  totalSqlQueries: queries,
  uniqueUserCount: Object.keys(users).length,
  userCounts: Object.entries(users).map(([user, count]) => ({ user, count })),
});

/** What DataHub's containers smoke test selects of a container. */
const CONTAINER = `query container($urn: String!) {
  container(urn: $urn) {
    urn type
    platform { urn }
    container { urn properties { name description } }
    parentContainers { count containers { urn } }
    properties { name description customProperties { key value } }
    editableProperties { description }
    ownership { owners { owner { ... on CorpUser { urn } } } }
    institutionalMemory { elements { url label } }
    tags { tags { tag { urn } } }
    glossaryTerms { terms { term { urn } } }
    subTypes { typeNames }
    domain { domain { urn } }
    browsePathV2 { path { name entity { urn } } }
    entities(input: {}) { total searchResults { entity { ... on Dataset { urn } } } }
    children: relationships(input: { types: ["IsPartOf"], direction: INCOMING, relatedEntityTypes: ["dataset"] }) { relationships { entity { urn } } }
    charts: relationships(input: { types: ["IsPartOf"], direction: INCOMING, relatedEntityTypes: ["chart"] }) { relationships { entity { urn } } }
  }
}`;

for (const backend of await backends()) {
  describe(`GraphQL reads of every entity type over ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp(DB, 'containerProperties', { name: 'shop' }, 'container'),
        mcp(SCHEMA, 'containerProperties', { name: 'public', description: 'The public schema', customProperties: { env: 'prod' } }, 'container'),
        mcp(SCHEMA, 'editableContainerProperties', { description: 'custom description' }, 'container'),
        mcp(SCHEMA, 'subTypes', { typeNames: ['Schema'] }, 'container'),
        mcp(SCHEMA, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:mysql' }, 'container'),
        mcp(SCHEMA, 'container', { container: DB }, 'container'),
        mcp(SCHEMA, 'domains', { domains: [CHILD_DOMAIN] }, 'container'),
        mcp(ORDERS, 'datasetProperties', { name: 'orders', description: 'ingested' }),
        mcp(ORDERS, 'editableDatasetProperties', { description: 'edited' }),
        mcp(ORDERS, 'container', { container: SCHEMA }),
        mcp(ORDERS, 'schemaMetadata', {
          schemaName: 'orders',
          platform: 'urn:li:dataPlatform:mysql',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            {
              fieldPath: 'id',
              label: 'Order id',
              isPartOfKey: true,
              type: { type: { 'com.linkedin.schema.NumberType': {} } },
              nativeDataType: 'int',
            },
          ],
        }),
        mcp(ORDERS, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        mcp(ORDERS, 'institutionalMemory', { elements: [{ url: 'https://wiki/orders', description: 'Runbook', createStamp: stamp }] }),
        mcp(ORDERS, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The order id', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }],
        }),
        // Values are checked against their definitions, as DataHub checks them.
        mcp(
          'urn:li:structuredProperty:io.tier',
          'propertyDefinition',
          { qualifiedName: 'io.tier', valueType: 'urn:li:dataType:datahub.string', entityTypes: [] },
          'structuredProperty',
        ),
        mcp(
          'urn:li:structuredProperty:io.cost',
          'propertyDefinition',
          { qualifiedName: 'io.cost', valueType: 'urn:li:dataType:datahub.number', entityTypes: [] },
          'structuredProperty',
        ),
        mcp(ORDERS, 'structuredProperties', {
          properties: [
            { propertyUrn: 'urn:li:structuredProperty:io.tier', values: [{ string: 'gold' }] },
            { propertyUrn: 'urn:li:structuredProperty:io.cost', values: [{ double: 2 }] },
          ],
        }),
        mcp(ORDERS, 'domains', { domains: [CHILD_DOMAIN] }),
        mcp(ORDERS, 'viewProperties', { materialized: false, viewLogic: 'select * from raw', viewLanguage: 'SQL' }),
        mcp(ORDERS, 'embed', { renderUrl: 'https://bi/orders' }),
        mcp(ORDERS, 'siblings', { siblings: [ds('dbt.orders')], primary: true }),
        mcp('urn:li:tag:pii', 'tagProperties', { name: 'PII', description: 'Personal data' }, 'tag'),
        mcp(PARENT_DOMAIN, 'domainProperties', { name: 'Commerce', created: stamp }, 'domain'),
        mcp(CHILD_DOMAIN, 'domainProperties', { name: 'Shop', parentDomain: PARENT_DOMAIN, created: stamp }, 'domain'),
        mcp(NODE, 'glossaryNodeInfo', { name: 'Finance', definition: 'Money' }, 'glossaryNode'),
        mcp(TERM, 'glossaryTermInfo', { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL', parentNode: NODE }, 'glossaryTerm'),
        mcp(CHART, 'chartInfo', { title: 'Sales', description: 'By day', lastModified: { created: stamp, lastModified: stamp } }, 'chart'),
        mcp(DASHBOARD, 'dashboardInfo', { title: 'Overview', description: '', lastModified: { created: stamp, lastModified: stamp } }, 'dashboard'),
        mcp(PRODUCT, 'dataProductProperties', { name: 'Orders', assets: [{ destinationUrn: ORDERS, created: stamp }] }, 'dataProduct'),
        mcp(GROUP, 'corpGroupInfo', { displayName: 'Analysts', admins: [], members: [], groups: [] }, 'corpGroup'),
        mcp(GROUP, 'corpGroupEditableInfo', { description: 'People who analyse' }, 'corpGroup'),
        mcp(
          INCIDENT,
          'incidentInfo',
          {
            type: 'OPERATIONAL',
            title: 'Orders late',
            entities: [ORDERS],
            priority: 1,
            status: { state: 'ACTIVE', stage: 'TRIAGE', lastUpdated: stamp },
            source: { type: 'MANUAL' },
            created: stamp,
          },
          'incident',
        ),
        mcp(
          ASSERTION,
          'assertionInfo',
          { type: 'DATASET', description: 'Not empty', datasetAssertion: { dataset: ORDERS, scope: 'DATASET_ROWS', operator: 'GREATER_THAN' } },
          'assertion',
        ),
        mcp(ML_MODEL, 'mlModelProperties', { name: 'churn' }, 'mlModel'),
        mcp(RUN, 'dataProcessInstanceProperties', { name: 'Run 1', created: stamp }, 'dataProcessInstance'),
        mcp(FORM, 'formInfo', { name: 'Quality', type: 'COMPLETION', prompts: [] }, 'form'),
      );
    });

    it('reads a container with its platform, parents, edits, sub types, domain, browse path and entities', async () => {
      const data = await gqlData(server, CONTAINER, { urn: SCHEMA });
      assert.deepEqual(data.container, {
        urn: SCHEMA,
        type: 'CONTAINER',
        platform: { urn: 'urn:li:dataPlatform:mysql' },
        container: { urn: DB, properties: { name: 'shop', description: null } },
        parentContainers: { count: 1, containers: [{ urn: DB }] },
        properties: { name: 'public', description: 'The public schema', customProperties: [{ key: 'env', value: 'prod' }] },
        editableProperties: { description: 'custom description' },
        ownership: null,
        institutionalMemory: null,
        tags: null,
        glossaryTerms: null,
        subTypes: { typeNames: ['Schema'] },
        domain: { domain: { urn: CHILD_DOMAIN } },
        // DataHub's default for an entity that is no dataset, chart, dashboard or job: the Default folder.
        browsePathV2: { path: [{ name: 'Default', entity: null }] },
        entities: { total: 1, searchResults: [{ entity: { urn: ORDERS } }] },
        children: { relationships: [{ entity: { urn: ORDERS } }] },
        charts: { relationships: [] },
      });
      // A container no dataPlatformInstance names a platform for answers DataHub's default, not an error.
      assert.deepEqual((await gqlData(server, CONTAINER, { urn: DB })).container.platform, { urn: 'urn:li:dataPlatform:unknown' });
    });

    it('reads what DataHub adds to a dataset: origin, globalTags, description, links, editable schema, structured properties', async () => {
      const data = await gqlData(
        server,
        `query d($urn: String!) { dataset(urn: $urn) {
          origin
          description
          editableProperties { description }
          globalTags { tags { tag { urn properties { name } } } }
          institutionalMemory { elements { url label description created { time } actor { ... on CorpUser { urn } } } }
          schemaMetadata(version: 0) { aspectVersion datasetUrn fields { fieldPath label recursive isPartOfKey schemaFieldEntity { urn fieldPath } } }
          editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description tags { tags { tag { urn } } } } }
          structuredProperties { properties { structuredProperty { urn } values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } }
          viewProperties { materialized logic language }
          embed { renderUrl }
          siblings { isPrimary siblings { urn } }
          container { urn }
          parentContainers { count containers { urn } }
          browsePathV2 { path { name } }
          browsePaths { path }
          relationships(input: { types: ["IsPartOf"], direction: OUTGOING }) { total relationships { type direction entity { urn } } }
        } }`,
        { urn: ORDERS },
      );
      assert.deepEqual(data.dataset, {
        origin: 'PROD',
        description: 'edited',
        editableProperties: { description: 'edited' },
        globalTags: { tags: [{ tag: { urn: 'urn:li:tag:pii', properties: { name: 'PII' } } }] },
        institutionalMemory: {
          elements: [
            { url: 'https://wiki/orders', label: 'Runbook', description: 'Runbook', created: { time: stamp.time }, actor: { urn: stamp.actor } },
          ],
        },
        schemaMetadata: {
          aspectVersion: 0,
          datasetUrn: ORDERS,
          fields: [
            {
              fieldPath: 'id',
              label: 'Order id',
              recursive: false,
              isPartOfKey: true,
              schemaFieldEntity: { urn: `urn:li:schemaField:(${ORDERS},id)`, fieldPath: 'id' },
            },
          ],
        },
        editableSchemaMetadata: {
          editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The order id', tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' } }] } }],
        },
        structuredProperties: {
          properties: [
            { structuredProperty: { urn: 'urn:li:structuredProperty:io.tier' }, values: [{ stringValue: 'gold' }] },
            { structuredProperty: { urn: 'urn:li:structuredProperty:io.cost' }, values: [{ numberValue: 2 }] },
          ],
        },
        viewProperties: { materialized: false, logic: 'select * from raw', language: 'SQL' },
        embed: { renderUrl: 'https://bi/orders' },
        siblings: { isPrimary: true, siblings: [{ urn: ds('dbt.orders') }] },
        container: { urn: SCHEMA },
        parentContainers: { count: 2, containers: [{ urn: SCHEMA }, { urn: DB }] },
        // No browsePathsV2 was ingested: DataHub's default is the container chain, outermost first.
        browsePathV2: { path: [{ name: DB }, { name: SCHEMA }] },
        browsePaths: [{ path: ['prod', 'mysql', 'shop', 'public'] }],
        relationships: { total: 1, relationships: [{ type: 'IsPartOf', direction: 'OUTGOING', entity: { urn: SCHEMA } }] },
      });
    });

    it('summarises the usage of the last 30 days as DataHub does, and lists operations', async () => {
      await ingest(
        server,
        mcp(ORDERS, 'datasetUsageStatistics', usage(3, 5, { 'urn:li:corpuser:ann': 2, 'urn:li:corpuser:bob': 4 })),
        mcp(ORDERS, 'datasetUsageStatistics', usage(10, 5, { 'urn:li:corpuser:ann': 3 })),
        // Out of the window: neither its queries nor its user count.
        mcp(ORDERS, 'datasetUsageStatistics', usage(40, 100, { 'urn:li:corpuser:old': 50 })),
        mcp(ORDERS, 'operation', { timestampMillis: daysAgo(1), operationType: 'INSERT', lastUpdatedTimestamp: daysAgo(1), numAffectedRows: 7 }),
        mcp(CHART, 'chartUsageStatistics', { timestampMillis: daysAgo(0), viewsCount: 12 }, 'chart'),
        mcp(
          CHART,
          'chartUsageStatistics',
          {
            timestampMillis: daysAgo(2),
            eventGranularity: { unit: 'DAY', multiple: 1 },
            userCounts: [{ user: 'urn:li:corpuser:ann', usageCount: 3 }],
          },
          'chart',
        ),
      );
      const data = await gqlData(
        server,
        `{ dataset(urn: "${ORDERS}") {
            statsSummary { queryCountLast30Days uniqueUserCountLast30Days topUsersLast30Days { urn } }
            usageStats(range: MONTH) { aggregations { totalSqlQueries uniqueUserCount users { user { urn } count } } }
            operations(limit: 5) { operationType numAffectedRows }
          }
          chart(urn: "${CHART}") { statsSummary { viewCount uniqueUserCountLast30Days topUsersLast30Days { urn } } } }`,
      );
      assert.deepEqual(data.dataset.statsSummary, {
        queryCountLast30Days: 10,
        uniqueUserCountLast30Days: 2,
        topUsersLast30Days: [{ urn: 'urn:li:corpuser:ann' }, { urn: 'urn:li:corpuser:bob' }],
      });
      assert.deepEqual(data.dataset.usageStats.aggregations, {
        totalSqlQueries: 10,
        uniqueUserCount: 2,
        users: [
          { user: { urn: 'urn:li:corpuser:ann' }, count: 5 },
          { user: { urn: 'urn:li:corpuser:bob' }, count: 4 },
        ],
      });
      assert.deepEqual(data.dataset.operations, [{ operationType: 'INSERT', numAffectedRows: 7 }]);
      assert.deepEqual(data.chart.statsSummary, {
        viewCount: 12,
        uniqueUserCountLast30Days: 1,
        topUsersLast30Days: [{ urn: 'urn:li:corpuser:ann' }],
      });
    });

    it('answers the root query of each entity type, and null for one not stored', async () => {
      const cases: [string, string][] = [
        ['chart', CHART],
        ['dashboard', DASHBOARD],
        ['container', SCHEMA],
        ['domain', CHILD_DOMAIN],
        ['glossaryTerm', TERM],
        ['glossaryNode', NODE],
        ['tag', 'urn:li:tag:pii'],
        ['corpGroup', GROUP],
        ['dataProduct', PRODUCT],
        ['incident', INCIDENT],
        ['assertion', ASSERTION],
        ['mlModel', ML_MODEL],
        ['dataProcessInstance', RUN],
        ['form', FORM],
      ];
      const query = `query q(${cases.map((_c, i) => `$u${i}: String!`).join(', ')}) { ${cases.map(([field], i) => `a${i}: ${field}(urn: $u${i}) { urn type }`).join(' ')} }`;
      const data = await gqlData(server, query, Object.fromEntries(cases.map(([, urn], i) => [`u${i}`, urn])));
      cases.forEach(([field, urn], i) => assert.equal(data[`a${i}`]?.urn, urn, field));
      assert.equal(data.a0.type, 'CHART');
      assert.equal(data.a9.type, 'INCIDENT');
      const missing = await gqlData(server, `{ chart(urn: "urn:li:chart:(looker,nothing)") { urn } domain(urn: "urn:li:domain:nothing") { urn } }`);
      assert.deepEqual(missing, { chart: null, domain: null });
    });

    it("reads an ML model's description and custom properties as DataHub's MLModelProperties", async () => {
      const urn = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_props,PROD)';
      await ingest(server, mcp(urn, 'mlModelProperties', { description: 'Predicts churn', customProperties: { owner: 'ds' } }, 'mlModel'));
      const data = await gqlData(
        server,
        `query m($urn: String!) { mlModel(urn: $urn) { properties { description customProperties { key value associatedUrn } } } }`,
        { urn },
      );
      assert.deepEqual(data.mlModel.properties, {
        description: 'Predicts churn',
        customProperties: [{ key: 'owner', value: 'ds', associatedUrn: urn }],
      });
    });

    it('refuses a root query given an urn of another type or a malformed one, naming the urn', async () => {
      await gqlError(server, `{ chart(urn: "${CHILD_DOMAIN}") { urn } }`, undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: `urn: ${CHILD_DOMAIN} is not a chart urn (entity type domain)`,
      });
      await gqlError(server, `{ entities(urns: ["${CHART}", "not-an-urn"]) { urn } }`, undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: /^urns: not-an-urn is not a valid urn/,
      });
    });

    it('reads entities by urn in order, null for a type Almanac has no type for or, when asked, one not stored', async () => {
      const data = await gqlData(
        server,
        `query e($urns: [String!]!) { entities(urns: $urns, checkForExistence: true) { urn type } entityExists(urn: "${TERM}") }`,
        {
          urns: [TERM, CHART, 'urn:li:chart:(looker,nothing)'],
        },
      );
      assert.deepEqual(data, {
        entities: [{ urn: TERM, type: 'GLOSSARY_TERM' }, { urn: CHART, type: 'CHART' }, null],
        entityExists: true,
      });
    });

    it('reads domains with their parents and lists the root domains and a parent children', async () => {
      const data = await gqlData(
        server,
        `{ domain(urn: "${CHILD_DOMAIN}") { properties { name } parentDomains { count domains { urn } } entities { total searchResults { entity { urn } } } }
           roots: listDomains(input: {}) { total domains { urn } }
           children: listDomains(input: { parentDomain: "${PARENT_DOMAIN}" }) { total domains { urn properties { name } } } }`,
      );
      assert.deepEqual(data.domain, {
        properties: { name: 'Shop' },
        parentDomains: { count: 1, domains: [{ urn: PARENT_DOMAIN }] },
        entities: { total: 2, searchResults: [{ entity: { urn: ORDERS } }, { entity: { urn: SCHEMA } }] },
      });
      assert.deepEqual(data.roots, { total: 1, domains: [{ urn: PARENT_DOMAIN }] });
      assert.deepEqual(data.children, { total: 1, domains: [{ urn: CHILD_DOMAIN, properties: { name: 'Shop' } }] });
    });

    it('reads glossary terms with their parent nodes and lists the root nodes and terms', async () => {
      const data = await gqlData(
        server,
        `{ glossaryTerm(urn: "${TERM}") { hierarchicalName properties { name description } parentNodes { count nodes { urn properties { name } } } }
           glossaryNode(urn: "${NODE}") { childrenCount { termsCount nodesCount } }
           getRootGlossaryNodes(input: { start: 0, count: 10 }) { total nodes { urn } }
           getRootGlossaryTerms(input: { start: 0, count: 10 }) { total terms { urn } } }`,
      );
      assert.deepEqual(data, {
        glossaryTerm: {
          hierarchicalName: 'Finance.Revenue',
          properties: { name: 'Revenue', description: 'Money in' },
          parentNodes: { count: 1, nodes: [{ urn: NODE, properties: { name: 'Finance' } }] },
        },
        glossaryNode: { childrenCount: { termsCount: 1, nodesCount: 0 } },
        getRootGlossaryNodes: { total: 1, nodes: [{ urn: NODE }] },
        getRootGlossaryTerms: { total: 0, terms: [] },
      });
    });

    it('reads a data product with its assets, and lists them searched', async () => {
      const data = await gqlData(
        server,
        `{ dataProduct(urn: "${PRODUCT}") { type properties { name numAssets } entities { total searchResults { entity { urn } } } }
           listDataProductAssets(urn: "${PRODUCT}", input: { query: "*", count: 5 }) { total searchResults { entity { urn } } } }`,
      );
      assert.deepEqual(data, {
        dataProduct: {
          type: 'DATA_PRODUCT',
          properties: { name: 'Orders', numAssets: 1 },
          entities: { total: 1, searchResults: [{ entity: { urn: ORDERS } }] },
        },
        listDataProductAssets: { total: 1, searchResults: [{ entity: { urn: ORDERS } }] },
      });
    });

    it('reads a dataset incidents and assertions', async () => {
      const data = await gqlData(
        server,
        `{ dataset(urn: "${ORDERS}") {
            incidents(state: ACTIVE) { total incidents { urn incidentType title priority incidentStatus { state stage } entity { urn } source { type } } }
            resolved: incidents(state: RESOLVED) { total }
            assertions { total assertions { urn info { type description } } }
          } }`,
      );
      assert.deepEqual(data.dataset, {
        incidents: {
          total: 1,
          incidents: [
            {
              urn: INCIDENT,
              incidentType: 'OPERATIONAL',
              title: 'Orders late',
              priority: 'HIGH',
              incidentStatus: { state: 'ACTIVE', stage: 'TRIAGE' },
              entity: { urn: ORDERS },
              source: { type: 'MANUAL' },
            },
          ],
        },
        resolved: { total: 0 },
        assertions: { total: 1, assertions: [{ urn: ASSERTION, info: { type: 'DATASET', description: 'Not empty' } }] },
      });
    });

    it('lists groups for a user manager and refuses a Reader with DataHub message', async () => {
      const data = await gqlData(
        server,
        `{ listGroups(input: { start: 0, count: 10 }) { total groups { urn name properties { displayName } editableProperties { description } } } }`,
      );
      assert.deepEqual(data.listGroups, {
        total: 1,
        groups: [
          { urn: GROUP, name: 'analysts', properties: { displayName: 'Analysts' }, editableProperties: { description: 'People who analyse' } },
        ],
      });
      const reader = await actorWithRole(server, 'group-reader', 'Reader');
      await gqlError(
        server,
        `{ listGroups(input: {}) { total } }`,
        undefined,
        { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' },
        { auth: reader },
      );
    });

    it('searches charts and data products as it searches datasets', async () => {
      const data = await gqlData(
        server,
        `{ charts: search(input: { type: CHART, query: "*" }) { total searchResults { entity { urn ... on Chart { properties { name } } } } }
           products: search(input: { type: DATA_PRODUCT, query: "*" }) { total searchResults { entity { urn } } }
           facets: searchAcrossEntities(input: { query: "*", types: [CHART] }) { facets { field aggregations { value displayName } } } }`,
      );
      assert.deepEqual(data.charts, { total: 1, searchResults: [{ entity: { urn: CHART, properties: { name: 'Sales' } } }] });
      assert.deepEqual(data.products, { total: 1, searchResults: [{ entity: { urn: PRODUCT } }] });
      const types = data.facets.facets.find((f: { field: string }) => f.field === '_entityType');
      assert.deepEqual(types.aggregations, [{ value: 'CHART', displayName: null }]);
    });

    it('refuses a page size out of range, naming the field', async () => {
      await gqlError(server, `{ listDomains(input: { count: 5000 }) { total } }`, undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: 'input.count must be from 0 to 1000, got 5000',
      });
      await gqlError(server, `{ domain(urn: "${CHILD_DOMAIN}") { entities(input: { start: -1 }) { total } } }`, undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: 'input.start must not be negative',
      });
    });
  });
}

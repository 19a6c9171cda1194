import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };

let counter = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,props.t${++counter},PROD)`;

const CREATE =
  'mutation c($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { urn type definition { qualifiedName displayName } } }';
const UPSERT = `mutation u($input: UpsertStructuredPropertiesInput!) {
  upsertStructuredProperties(input: $input) { properties { structuredProperty { urn } values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } }
}`;
const REMOVE =
  'mutation r($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) { properties { structuredProperty { urn } } } }';
const RAISE = 'mutation raise($input: RaiseIncidentInput!) { raiseIncident(input: $input) }';
const UPDATE = 'mutation u($urn: String!, $input: UpdateIncidentInput!) { updateIncident(urn: $urn, input: $input) }';
const STATUS = 'mutation s($urn: String!, $input: IncidentStatusInput!) { updateIncidentStatus(urn: $urn, input: $input) }';

for (const backend of await backends()) {
  describe(`GraphQL structured property and incident mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('defines properties, assigns checked values, replaces and removes them', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const tier = (
        await gqlData(server, CREATE, {
          input: {
            qualifiedName: `io.test.tier${++counter}`,
            displayName: 'Tier',
            valueType: 'urn:li:dataType:datahub.string',
            cardinality: 'SINGLE',
            entityTypes: ['urn:li:entityType:datahub.dataset'],
            allowedValues: [{ stringValue: 'gold' }, { stringValue: 'silver' }],
          },
        })
      ).createStructuredProperty;
      assert.deepEqual(tier, {
        urn: `urn:li:structuredProperty:io.test.tier${counter}`,
        type: 'STRUCTURED_PROPERTY',
        definition: { qualifiedName: `io.test.tier${counter}`, displayName: 'Tier' },
      });
      const cost = (
        await gqlData(server, CREATE, {
          input: { id: `io.test.cost${++counter}`, valueType: 'urn:li:dataType:datahub.number', cardinality: 'MULTIPLE', entityTypes: [] },
        })
      ).createStructuredProperty.urn;
      const upsert = (params: unknown[]) => gqlData(server, UPSERT, { input: { assetUrn: urn, structuredPropertyInputParams: params } });
      await upsert([{ structuredPropertyUrn: tier.urn, values: [{ stringValue: 'gold' }] }]);
      const answered = await upsert([
        { structuredPropertyUrn: tier.urn, values: [{ stringValue: 'silver' }] },
        { structuredPropertyUrn: cost, values: [{ numberValue: 3 }, { numberValue: 2.5 }] },
      ]);
      assert.deepEqual(answered.upsertStructuredProperties.properties, [
        { structuredProperty: { urn: tier.urn }, values: [{ stringValue: 'silver' }] },
        { structuredProperty: { urn: cost }, values: [{ numberValue: 3 }, { numberValue: 2.5 }] },
      ]);
      const stored = (await restliAspect(server, urn, 'structuredProperties'))?.properties as Array<Record<string, unknown>>;
      assert.deepEqual(stored[0]!.values, [{ string: 'silver' }]);
      assert.equal((stored[1]!.created as { actor: string }).actor, ADMIN);
      await gqlError(
        server,
        UPSERT,
        { input: { assetUrn: urn, structuredPropertyInputParams: [{ structuredPropertyUrn: tier.urn, values: [{ stringValue: 'bronze' }] }] } },
        {
          ...BAD_REQUEST,
          message: `ValidationExceptionCollection{EntityAspect:(${urn},structuredProperties) Exceptions: [Property: ${tier.urn}, value: {string=bronze} should be one of [{string=gold}, {string=silver}]]}`,
        },
      );
      const removed = await gqlData(server, REMOVE, { input: { assetUrn: urn, structuredPropertyUrns: [tier.urn] } });
      assert.deepEqual(removed.removeStructuredProperties.properties, [{ structuredProperty: { urn: cost } }]);
      const reader = await actorWithRole(server, `props-reader-${++counter}`, 'Reader');
      await gqlError(
        server,
        REMOVE,
        { input: { assetUrn: urn, structuredPropertyUrns: [cost] } },
        { code: 403, type: 'UNAUTHORIZED', message: `Not authorized to update properties on the gives urn ${urn}` },
        { auth: reader },
      );
      await gqlError(
        server,
        CREATE,
        { input: { qualifiedName: 'io.test.refused', valueType: 'urn:li:dataType:datahub.string', entityTypes: [] } },
        { code: 403, type: 'UNAUTHORIZED', message: 'Unable to create structured property. Please contact your admin.' },
        { auth: reader },
      );
    });

    it('raises an incident and changes its status, refusing a Reader and a missing incident', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const incident = (await gqlData(server, RAISE, { input: { type: 'OPERATIONAL', title: 'Late load', resourceUrn: urn, priority: 'HIGH' } }))
        .raiseIncident;
      assert.match(incident, /^urn:li:incident:[0-9a-f-]{36}$/);
      const info = await restliAspect(server, incident, 'incidentInfo');
      assert.deepEqual(
        {
          type: info?.type,
          title: info?.title,
          entities: info?.entities,
          priority: info?.priority,
          source: info?.source,
          state: (info?.status as Json).state,
        },
        { type: 'OPERATIONAL', title: 'Late load', entities: [urn], priority: 1, source: { type: 'MANUAL' }, state: 'ACTIVE' },
      );
      assert.deepEqual(await gqlData(server, STATUS, { urn: incident, input: { state: 'RESOLVED', stage: 'FIXED', message: 'Reloaded' } }), {
        updateIncidentStatus: true,
      });
      const status = (await restliAspect(server, incident, 'incidentInfo'))?.status as Json;
      assert.deepEqual({ ...status, lastUpdated: undefined }, { state: 'RESOLVED', stage: 'FIXED', message: 'Reloaded', lastUpdated: undefined });
      const reader = await actorWithRole(server, `incidents-reader-${++counter}`, 'Reader');
      const refused = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
      await gqlError(server, RAISE, { input: { type: 'OPERATIONAL', resourceUrn: urn } }, refused, { auth: reader });
      await gqlError(server, STATUS, { urn: incident, input: { state: 'ACTIVE' } }, refused, { auth: reader });
      await gqlError(
        server,
        STATUS,
        { urn: 'urn:li:incident:nothing', input: { state: 'ACTIVE' } },
        {
          code: 404,
          type: 'NOT_FOUND',
          message: 'Failed to update incident. Incident does not exist.',
        },
      );
      await gqlError(
        server,
        RAISE,
        { input: { type: 'CUSTOM', resourceUrn: urn } },
        { ...BAD_REQUEST, message: 'customType is required: Failed to create incident.' },
      );
    });

    it('updates an incident: details and resources replaced, priority and assignees dropped when absent', async () => {
      const [first, second] = [datasetUrn(), datasetUrn()];
      await createDataset(server, first);
      await createDataset(server, second);
      const incident = (
        await gqlData(server, RAISE, {
          input: { type: 'OPERATIONAL', title: 'Late', resourceUrn: first, priority: 'LOW', assigneeUrns: [ADMIN] },
        })
      ).raiseIncident as string;
      const before = await restliAspect(server, incident, 'incidentInfo');
      assert.deepEqual(
        await gqlData(server, UPDATE, {
          urn: incident,
          input: { title: 'Very late', status: { state: 'RESOLVED', message: 'Done' }, resourceUrns: [second] },
        }),
        { updateIncident: true },
      );
      const after = (await restliAspect(server, incident, 'incidentInfo')) ?? {};
      const status = after.status as Json;
      assert.deepEqual(
        [after.title, after.type, after.entities, after.priority, after.assignees, after.created, status.state, status.message],
        ['Very late', 'OPERATIONAL', [second], undefined, undefined, before?.created, 'RESOLVED', 'Done'],
      );
      // Read back through GraphQL: the incident now hangs off the second dataset.
      const listed = await gqlData(
        server,
        'query q($urn: String!) { dataset(urn: $urn) { incidents(state: RESOLVED, start: 0, count: 10) { total incidents { urn title } } } }',
        { urn: second },
      );
      assert.deepEqual(listed.dataset.incidents, { total: 1, incidents: [{ urn: incident, title: 'Very late' }] });

      const reader = await actorWithRole(server, `incident-updater-${++counter}`, 'Reader');
      await gqlError(
        server,
        UPDATE,
        { urn: incident, input: { title: 'Refused' } },
        { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' },
        { auth: reader },
      );
      await gqlError(
        server,
        UPDATE,
        { urn: 'urn:li:incident:nothing', input: { title: 'x' } },
        { code: 404, type: 'NOT_FOUND', message: 'Failed to update incident. Incident does not exist.' },
      );
      await gqlError(
        server,
        UPDATE,
        { urn: incident, input: { resourceUrns: [] } },
        { ...BAD_REQUEST, message: 'resourceUrns cannot be empty if provided' },
      );
      await gqlError(
        server,
        UPDATE,
        { urn: incident, input: { title: 'Refused', resourceUrns: ['urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)'] } },
        { ...BAD_REQUEST, message: 'Failed to update incident: resource urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD) does not exist.' },
      );
      assert.equal((await restliAspect(server, incident, 'incidentInfo'))?.title, 'Very late');
    });
  });
}

type Json = Record<string, unknown>;

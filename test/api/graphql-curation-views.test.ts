import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
const VIEW_FIELDS = 'urn viewType name description definition { entityTypes filter { operator filters { field values condition negated } } }';
const CREATE = `mutation c($input: CreateViewInput!) { createView(input: $input) { ${VIEW_FIELDS} } }`;
const UPDATE = `mutation u($urn: String!, $input: UpdateViewInput!) { updateView(urn: $urn, input: $input) { ${VIEW_FIELDS} } }`;
const DELETE = 'mutation d($urn: String!) { deleteView(urn: $urn) }';
const MINE = 'query m($input: ListMyViewsInput!) { listMyViews(input: $input) { start count total views { urn name viewType } } }';
const GLOBAL = 'query g($input: ListGlobalViewsInput!) { listGlobalViews(input: $input) { total views { urn name } } }';

let counter = 0;
const definition = {
  entityTypes: ['DATASET', 'CHART'],
  filter: { operator: 'AND', filters: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] },
};

for (const backend of await backends()) {
  describe(`GraphQL views: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('creates personal and global views, lists them by owner and type, updates and deletes them', async () => {
      const editor = await actorWithRole(server, `views-editor-${++counter}`, 'Editor');
      const mine = (await gqlData(server, CREATE, { input: { viewType: 'PERSONAL', name: 'Hive things', definition } }, { auth: editor })).createView;
      assert.deepEqual(
        { ...mine, urn: undefined },
        {
          urn: undefined,
          viewType: 'PERSONAL',
          name: 'Hive things',
          description: null,
          definition: {
            entityTypes: ['DATASET', 'CHART'],
            filter: { operator: 'AND', filters: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'], condition: 'EQUAL', negated: false }] },
          },
        },
      );
      const stored = await restliAspect(server, mine.urn, 'dataHubViewInfo');
      assert.deepEqual((stored?.definition as { entityTypes: string[] }).entityTypes, ['dataset', 'chart']);
      const global = (await gqlData(server, CREATE, { input: { viewType: 'GLOBAL', name: `Everyone ${counter}`, definition } })).createView;
      const listed = await gqlData(server, MINE, { input: {} }, { auth: editor });
      assert.deepEqual(listed.listMyViews, { start: 0, count: 1, total: 1, views: [{ urn: mine.urn, name: 'Hive things', viewType: 'PERSONAL' }] });
      assert.ok(
        (await gqlData(server, GLOBAL, { input: { start: 0, count: 20 } })).listGlobalViews.views.some((v: { urn: string }) => v.urn === global.urn),
      );

      const updated = (
        await gqlData(
          server,
          UPDATE,
          { urn: mine.urn, input: { name: 'Hive only', definition: { ...definition, entityTypes: ['DATASET'] } } },
          { auth: editor },
        )
      ).updateView;
      assert.equal(updated.name, 'Hive only');
      assert.deepEqual(updated.definition.entityTypes, ['DATASET']);
      // Someone else's personal view, and a global view without MANAGE_GLOBAL_VIEWS, are refused.
      await gqlError(server, UPDATE, { urn: mine.urn, input: { name: 'taken' } }, UNAUTHORIZED);
      await gqlError(server, DELETE, { urn: global.urn }, UNAUTHORIZED, { auth: editor });
      await gqlError(server, CREATE, { input: { viewType: 'GLOBAL', name: 'nope', definition } }, UNAUTHORIZED, { auth: editor });
      assert.deepEqual(await gqlData(server, DELETE, { urn: mine.urn }, { auth: editor }), { deleteView: true });
      assert.equal(await restliAspect(server, mine.urn, 'dataHubViewInfo'), undefined);
      await gqlError(
        server,
        DELETE,
        { urn: mine.urn },
        { code: 400, type: 'BAD_REQUEST', message: `Failed to modify View. View with urn ${mine.urn} does not exist.` },
      );
    });
  });
}

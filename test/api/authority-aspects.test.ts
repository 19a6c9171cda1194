import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authorityAspectEntries } from '../../src/auth/authority-aspects.ts';
import { allEntitySpecs, aspectClassOf, entitySpec } from '../../src/catalog/registry/index.ts';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gqlData, mcp } from '../support/graphql.ts';
import { patchMcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const enc = encodeURIComponent;
const EDITOR = 'urn:li:corpuser:authority-editor';

/** Every (entity type, aspect) the authority table guards, a `*` row expanded to each aspect of its type. */
const guarded = authorityAspectEntries().flatMap(([key]) => {
  const [lowerType, aspect] = key.split('/') as [string, string];
  const type = allEntitySpecs().find((e) => e.name.toLowerCase() === lowerType)!.name;
  const aspects = aspect === '*' ? entitySpec(type).aspects.filter((a) => a !== entitySpec(type).keyAspect) : [aspect];
  return aspects.map((a) => ({ type, aspect: entitySpec(type).aspects.find((x) => x.toLowerCase() === a.toLowerCase()) ?? a }));
});

const urnOf = (type: string, i: number) => (type === 'corpuser' ? EDITOR : `urn:li:${type}:authority-${i}`);
const refusal = (urn: string) => `User ${EDITOR} is unauthorized to modify entity: ${urn}`;

for (const backend of await backends()) {
  describe(`aspects that carry authority need their privilege on every write path: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let editor: string;
    useServer(backend, async (s) => {
      server = s;
      editor = await actorWithRole(s, 'authority-editor', 'Editor');
    });
    const stored = async (urn: string, aspect: string) => (await server.request('GET', `/aspects/${enc(urn)}?aspect=${aspect}&version=0`)).status;
    const refused = (res: HttpResult, urn: string, where: string) => {
      assert.equal(res.status, 403, `${where}: ${res.text}`);
      assert.equal(res.json.message, refusal(urn), where);
    };

    it('the reported escalation: an Editor cannot put themselves in the admins group', async () => {
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(EDITOR, 'groupMembership', { groups: ['urn:li:corpGroup:admins'] }, 'corpuser'), async: 'false' },
        auth: editor,
      });
      refused(res, EDITOR, 'ingestProposal');
      assert.equal(await stored(EDITOR, 'groupMembership'), 404);
      // An Admin can, and an Editor can still describe the user.
      const admin = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp('urn:li:corpuser:someone', 'groupMembership', { groups: ['urn:li:corpGroup:admins'] }, 'corpuser'), async: 'false' },
      });
      assert.equal(admin.status, 200, admin.text);
      const info = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(EDITOR, 'corpUserEditableInfo', { aboutMe: 'hi' }, 'corpuser'), async: 'false' },
        auth: editor,
      });
      assert.equal(info.status, 200, info.text);
    });

    it('walks the table: each guarded aspect refused to an Editor through every ingestion path, nothing stored', async () => {
      assert.ok(guarded.length >= 20, `the table guards ${guarded.length} aspects`);
      for (const [i, { type, aspect }] of guarded.entries()) {
        const urn = urnOf(type, i);
        const proposal = mcp(urn, aspect, {}, type);
        const paths: Array<[string, () => Promise<HttpResult>]> = [
          [
            'Rest.li ingestProposal',
            () => server.request('POST', '/aspects?action=ingestProposal', { body: { proposal, async: 'false' }, auth: editor }),
          ],
          [
            'Rest.li ingestProposalBatch',
            () =>
              server.request('POST', '/aspects?action=ingestProposalBatch', {
                body: { proposals: [mcp('urn:li:corpuser:fine', 'corpUserEditableInfo', {}, 'corpuser'), proposal], async: 'false' },
                auth: editor,
              }),
          ],
          [
            'Rest.li PATCH',
            () =>
              server.request('POST', '/aspects?action=ingestProposal', {
                body: {
                  proposal: { ...patchMcp(urn, aspect, { forceGenericPatch: true, patch: [{ op: 'add', path: '/x', value: 1 }] }), entityType: type },
                  async: 'false',
                },
                auth: editor,
              }),
          ],
          [
            'Rest.li snapshot ingest',
            () => {
              const snapshotClass = entitySpec(type).snapshotClass ?? `com.linkedin.metadata.snapshot.${type}Snapshot`;
              return server.request('POST', '/entities?action=ingest', {
                body: { entity: { value: { [snapshotClass]: { urn, aspects: [{ [aspectClassOf(aspect)]: {} }] } } } },
                auth: editor,
              });
            },
          ],
          [
            'OpenAPI v3 batch',
            () => server.request('POST', `/openapi/v3/entity/${type}?async=false`, { body: [{ urn, [aspect]: { value: {} } }], auth: editor }),
          ],
          [
            'OpenAPI v3 aspect',
            () => server.request('POST', `/openapi/v3/entity/${type}/${enc(urn)}/${aspect}?async=false`, { body: { value: {} }, auth: editor }),
          ],
        ];
        for (const [where, send] of paths) {
          const res = await send();
          // The snapshot form names aspects by class; its parser may refuse an aspect it cannot map before any check.
          if (where === 'Rest.li snapshot ingest' && res.status === 400) continue;
          refused(res, urn, `${type}/${aspect} via ${where}`);
        }
        assert.equal(await stored(urn, aspect), 404, `${type}/${aspect}`);
      }
    });

    it('deleting a guarded aspect or entity needs the privilege too', async () => {
      const secret = 'urn:li:dataHubSecret:authority-delete';
      const admin = await server.request('POST', '/aspects?action=ingestProposal', {
        body: {
          proposal: mcp(
            secret,
            'dataHubSecretValue',
            { name: 'k', value: 'sealed', created: { time: 1, actor: 'urn:li:corpuser:datahub' } },
            'dataHubSecret',
          ),
          async: 'false',
        },
      });
      assert.equal(admin.status, 200, admin.text);
      const whole = await server.request('POST', '/entities?action=delete', { body: { urn: secret }, auth: editor });
      assert.equal(whole.status, 403, whole.text);
      const one = await server.request('POST', '/entities?action=delete', { body: { urn: secret, aspectName: 'dataHubSecretValue' }, auth: editor });
      assert.equal(one.status, 403, one.text);
      assert.equal((await server.request('DELETE', `/openapi/v3/entity/dataHubSecret/${enc(secret)}`, { auth: editor })).status, 403);
      assert.equal(await stored(secret, 'dataHubSecretValue'), 200);
    });

    it('rolling back a run that wrote a secret needs MANAGE_SECRETS beside MANAGE_INGESTION', async () => {
      await gqlData(server, 'mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }', {
        input: {
          type: 'PLATFORM',
          name: 'editor may roll back',
          state: 'ACTIVE',
          description: 'test',
          privileges: ['MANAGE_INGESTION'],
          actors: { users: [EDITOR], resourceOwners: false, allUsers: false, allGroups: false },
        },
      });
      const secret = 'urn:li:dataHubSecret:authority-rollback';
      const value = (v: string) => ({ name: 'k', value: v, created: { time: 1, actor: 'urn:li:corpuser:datahub' } });
      const first = { ...mcp(secret, 'dataHubSecretValue', value('one'), 'dataHubSecret'), systemMetadata: { runId: 'authority-run-1' } };
      const second = { ...mcp(secret, 'dataHubSecretValue', value('two'), 'dataHubSecret'), systemMetadata: { runId: 'authority-run-2' } };
      for (const proposal of [first, second]) {
        const res = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal, async: 'false' } });
        assert.equal(res.status, 200, res.text);
      }
      const res = await server.request('POST', '/runs?action=rollback', {
        body: { runId: 'authority-run-2', dryRun: false, safe: true },
        auth: editor,
      });
      refused(res, secret, 'rollback');
      const now = await server.request('GET', `/aspects/${enc(secret)}?aspect=dataHubSecretValue&version=0`);
      assert.equal((Object.values(now.json.aspect)[0] as { value: string }).value, 'two');
    });
  });
}

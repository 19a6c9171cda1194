import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { schema, writeVersions } from '../support/timeline.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,timeline.${name},PROD)`;
const field = (urn: string, path: string) => `urn:li:schemaField:(${urn},${path})`;
const ADMIN = 'urn:li:corpuser:datahub';

/* eslint-disable @typescript-eslint/no-explicit-any */
for (const backend of await backends()) {
  describe(`timeline over HTTP: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const timeline = async (urn: string, query: string): Promise<any[]> => {
      const res = await server.request('GET', `/openapi/v2/timeline/v1/${encodeURIComponent(urn)}?${query}`);
      assert.equal(res.status, 200, res.text);
      return res.json;
    };
    const events = (txns: any[]) => txns.map((t) => t.changeEvents.map((e: any) => `${e.operation} ${e.modifier ?? e.parameters?.status}`));

    it('reports added, removed, retyped and renamed fields with DataHub major and minor bumps', async () => {
      const urn = ds('schema');
      await writeVersions(
        server,
        urn,
        { schemaMetadata: schema(['id', 'int'], ['name', 'varchar']) },
        { schemaMetadata: schema(['email', 'text'], ['id', 'bigint']) },
        { schemaMetadata: schema(['id', 'bigint'], ['mail', 'text']) },
      );
      const txns = await timeline(urn, 'categories=TECHNICAL_SCHEMA');
      assert.deepEqual(
        txns.map((t) => [t.semVer, t.semVerChange, t.actor]),
        [
          ['0.0.0-computed', 'MINOR', ADMIN],
          ['1.0.0-computed', 'MAJOR', ADMIN],
          ['1.1.0-computed', 'MINOR', ADMIN],
        ],
      );
      assert.deepEqual(events(txns), [
        [`ADD ${field(urn, 'id')}`, `ADD ${field(urn, 'name')}`],
        [`ADD ${field(urn, 'email')}`, `MODIFY ${field(urn, 'id')}`, `REMOVE ${field(urn, 'name')}`],
        [`MODIFY ${field(urn, 'email')}`],
      ]);
      assert.deepEqual(txns[1].changeEvents[2], {
        entityUrn: urn,
        category: 'TECHNICAL_SCHEMA',
        operation: 'REMOVE',
        modifier: field(urn, 'name'),
        parameters: { fieldPath: 'name', fieldUrn: field(urn, 'name'), nullable: false, modificationCategory: 'OTHER' },
        semVerChange: 'MAJOR',
        description: "A backwards incompatible change due to removal of field: 'name'.",
      });
      assert.equal(
        txns[1].changeEvents[1].description,
        "A backwards incompatible change due to native datatype of the field 'id' changed from 'int' to 'bigint'.",
      );
      assert.equal(txns[2].changeEvents[0].description, "A forwards & backwards compatible change due to renaming of the field 'email to mail'.");
      assert.equal(txns[2].changeEvents[0].parameters.modificationCategory, 'RENAME');
      assert.ok(txns.every((t, i) => i === 0 || t.timestamp > txns[i - 1].timestamp));
      assert.deepEqual(
        txns.map((t) => t.versionStamp),
        ['schemaMetadata:1', 'schemaMetadata:2', 'schemaMetadata:0'],
      );
      assert.ok(txns.every((t) => !('rawDiff' in t)));
    });

    it('reports owners added and removed, under OWNERSHIP and its old name OWNER', async () => {
      const urn = ds('owners');
      const owner = (who: string, type = 'TECHNICAL_OWNER') => ({ owner: `urn:li:corpuser:${who}`, type });
      await writeVersions(server, urn, { ownership: { owners: [owner('alice')] } }, { ownership: { owners: [owner('bob', 'DATAOWNER')] } });
      const txns = await timeline(urn, 'categories=OWNER');
      assert.deepEqual(txns, await timeline(urn, 'categories=ownership'));
      assert.deepEqual(events(txns), [['ADD urn:li:corpuser:alice'], ['REMOVE urn:li:corpuser:alice', 'ADD urn:li:corpuser:bob']]);
      assert.deepEqual(txns[1].changeEvents[0], {
        entityUrn: urn,
        category: 'OWNERSHIP',
        operation: 'REMOVE',
        modifier: 'urn:li:corpuser:alice',
        parameters: { ownerUrn: 'urn:li:corpuser:alice', ownerType: 'TECHNICAL_OWNER', sourceDetails: '{}' },
        semVerChange: 'MINOR',
        description: `'alice' removed as a \`TECHNICAL_OWNER\` of '${urn}'.`,
      });
      assert.deepEqual(
        txns.map((t) => t.semVer),
        ['0.0.0-computed', '0.1.0-computed'],
      );
    });

    it('groups the tag and term changes written together into one transaction', async () => {
      const urn = ds('tags');
      await writeVersions(
        server,
        urn,
        { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } },
        {
          globalTags: { tags: [{ tag: 'urn:li:tag:gold' }] },
          glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Email' }], auditStamp: { time: 1, actor: ADMIN } },
        },
      );
      const txns = await timeline(urn, 'categories=TAG&categories=GLOSSARY_TERM');
      assert.deepEqual(events(txns), [['ADD urn:li:tag:pii'], ['ADD urn:li:tag:gold', 'REMOVE urn:li:tag:pii', 'ADD urn:li:glossaryTerm:Email']]);
      assert.deepEqual(txns[1].changeEvents[0], {
        entityUrn: urn,
        category: 'TAG',
        operation: 'ADD',
        modifier: 'urn:li:tag:gold',
        parameters: { tagUrn: 'urn:li:tag:gold', context: '{}', sourceDetails: '{}' },
        semVerChange: 'MINOR',
        description: `Tag 'gold' added to entity '${urn}'.`,
      });
      assert.equal(txns[1].changeEvents[2].description, `Term 'Email' added to entity '${urn}'.`);
      assert.deepEqual(txns[1].changeEvents[2].parameters, { termUrn: 'urn:li:glossaryTerm:Email', context: '{}', sourceDetails: '{}' });
      assert.deepEqual(events(await timeline(urn, 'categories=glossary-term')), [['ADD urn:li:glossaryTerm:Email']]);
    });

    it('reports description changes under DOCUMENTATION', async () => {
      const urn = ds('docs');
      await writeVersions(
        server,
        urn,
        { editableDatasetProperties: { description: 'first' } },
        { editableDatasetProperties: { description: 'second' } },
        { editableDatasetProperties: {} },
      );
      const txns = await timeline(urn, 'categories=DOCUMENTATION');
      assert.deepEqual(
        txns.flatMap((t) => t.changeEvents.map((e: any) => [e.operation, e.description, e.parameters.description])),
        [
          ['ADD', `Documentation for '${urn}' has been added: 'first'.`, 'first'],
          ['MODIFY', `Documentation of '${urn}' has been changed from 'first' to 'second'.`, 'second'],
          ['REMOVE', `Documentation for '${urn}' has been removed: 'second'.`, 'second'],
        ],
      );
    });

    it('reports deprecation and un-deprecation under DEPRECATION with DataHub parameters', async () => {
      const urn = ds('deprecation');
      await writeVersions(
        server,
        urn,
        { deprecation: { deprecated: true, note: 'use v2', decommissionTime: 1800000000000, actor: ADMIN } },
        { deprecation: { deprecated: false, note: '', actor: ADMIN } },
      );
      const txns = await timeline(urn, 'categories=DEPRECATION');
      assert.deepEqual(
        txns.map((t) => t.changeEvents.map((e: any) => [e.category, e.operation, e.parameters])),
        [
          [['DEPRECATION', 'MODIFY', { status: 'DEPRECATED', timestamp: '1800000000000', note: 'use v2' }]],
          [['DEPRECATION', 'MODIFY', { status: 'ACTIVE' }]],
        ],
      );
      assert.equal(txns[0].changeEvents[0].description, `'${urn}' has been deprecated: 'use v2'.`);
    });

    it('answers only the window asked for, diffed against the version before it, and the raw diff on request', async () => {
      const urn = ds('window');
      const before = Date.now();
      await writeVersions(server, urn, { globalTags: { tags: [{ tag: 'urn:li:tag:a' }] } });
      const middle = Date.now();
      await writeVersions(server, urn, { globalTags: { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] } });
      const end = Date.now();
      await writeVersions(server, urn, { globalTags: { tags: [] } });
      const txns = await timeline(urn, `categories=TAG&startTime=${middle}&endTime=${end}&raw=True`);
      assert.deepEqual(events(txns), [['ADD urn:li:tag:b']]);
      assert.equal(txns[0].semVer, '0.0.0-computed');
      assert.deepEqual(txns[0].rawDiff, [{ op: 'add', path: '/tags/1', value: { tag: 'urn:li:tag:b' } }]);
      assert.equal((await timeline(urn, 'categories=TAG')).length, 3);
      assert.deepEqual(await timeline(urn, `categories=TAG&startTime=0&endTime=${before}`), [], 'nothing was written before the first version');
    });

    it('counts primary-key changes as major and names v2 field paths in their short form', async () => {
      const urn = ds('keys');
      const v2 = '[version=2.0].[type=struct].address.[type=string].city';
      await writeVersions(
        server,
        urn,
        { schemaMetadata: { ...schema(['id', 'int']), primaryKeys: ['id'] } },
        { schemaMetadata: { ...schema(['id', 'int'], [v2, 'string']), primaryKeys: [] } },
      );
      const [, second] = await timeline(urn, 'categories=technical_schema');
      assert.equal(second.semVer, '1.0.0-computed');
      assert.deepEqual(
        second.changeEvents.map((e: any) => [e.operation, e.semVerChange, e.description]),
        [
          ['ADD', 'MINOR', "A forwards & backwards compatible change due to the newly added field 'address.city'."],
          ['MODIFY', 'MAJOR', "A backwards incompatible change due to removal of the primary key field 'id'"],
        ],
      );
    });

    it('answers an empty list for an entity with no history', async () => {
      assert.deepEqual(await timeline(ds('never'), 'categories=TAG,OWNERSHIP'), []);
    });

    it('refuses bad input with a 400 naming what is wrong, and answers nothing', async () => {
      const urn = encodeURIComponent(ds('bad'));
      for (const [query, message] of [
        ['categories=TAG,COLOUR&categories=SMELL', /Unknown categories: COLOUR, SMELL/],
        ['categories=RELATED_ENTITIES', /Categories not answered by this server: RELATED_ENTITIES; it answers TECHNICAL_SCHEMA/],
        ['', /Parameter 'categories' is required/],
        ['categories=', /Parameter 'categories' is required/],
        ['categories=TAG&since=1', /Unknown query parameter 'since'/],
        ['categories=TAG&startTime=yesterday', /Parameter 'startTime' must be an integer/],
        ['categories=TAG&raw=maybe', /Parameter 'raw' must be a boolean/],
        ['categories=TAG&includeVersionSet=true', /'includeVersionSet' is not supported/],
      ] as const) {
        const res = await server.request('GET', `/openapi/v2/timeline/v1/${urn}?${query}`);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.match(res.text, message, query);
      }
      const badUrn = await server.request('GET', '/openapi/v2/timeline/v1/not-a-urn?categories=TAG');
      assert.equal(badUrn.status, 400, badUrn.text);
      const anonymous = await server.request('GET', `/openapi/v2/timeline/v1/${urn}?categories=TAG`, { auth: null });
      assert.equal(anonymous.status, 401);
    });
  });
}

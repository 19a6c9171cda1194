import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import { openStore } from '../../src/storage/open-store.ts';
import { SEARCH_MIGRATION as POSTGRES_SEARCH_MIGRATION } from '../../src/storage/postgres/migrations.ts';
import { SEARCH_MIGRATION as SQLITE_SEARCH_MIGRATION } from '../../src/storage/sqlite/migrations.ts';
import type { SearchQuery, Store } from '../../src/storage/store.ts';
import { SearchIndexBuilder } from '../../src/tasks/search-index/search-index-builder.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { writeOldDatabase } from '../support/old-database.ts';

// A database written before the search index existed gets it built by batches after the migration, each batch in one
// transaction with the build's progress: resumable after a crash, never indexing an aspect twice, and in the end the
// same index the writes would have made.

const ds = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,old.table_${String(i).padStart(4, '0')},PROD)`;
const DATASETS = 1200;
/** Each dataset's name and tag: 2,400 aspects, a build of three batches of 1,000. */
const ROWS: ReadonlyArray<readonly [urn: string, aspect: string, value: unknown]> = Array.from({ length: DATASETS }, (_, i) => [
  [ds(i), 'datasetProperties', { name: `table_${i}`, description: i % 100 === 7 ? 'the rare zanzibar table' : 'kept for reports' }] as const,
  [ds(i), 'globalTags', { tags: [{ tag: i % 2 === 0 ? 'urn:li:tag:even' : 'urn:li:tag:odd' }] }] as const,
]).flat();

/** The datasets as a release before the index stored them: entities and latest aspects, nothing indexed. */
const writeOld = (db: TestDatabase, searchMigration: number) =>
  writeOldDatabase(db, searchMigration, {
    sqlite: (conn) => {
      const entity = conn.prepare("INSERT INTO entities (urn, entity_type, created_on, created_by) VALUES (?, 'dataset', 0, 'test')");
      const aspect = conn.prepare(
        "INSERT INTO aspects (urn, aspect, version, entity_type, metadata, created_on, created_by) VALUES (?, ?, 0, 'dataset', ?, 0, 'test')",
      );
      for (let i = 0; i < DATASETS; i++) entity.run(ds(i));
      for (const [urn, name, value] of ROWS) aspect.run(urn, name, JSON.stringify(value));
    },
    postgres: async (client) => {
      await client.query(`INSERT INTO entities (urn, entity_type, created_on, created_by) SELECT u, 'dataset', 0, 'test' FROM unnest($1::text[]) u`, [
        Array.from({ length: DATASETS }, (_, i) => ds(i)),
      ]);
      await client.query(
        `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, created_on, created_by)
         SELECT u, a, 0, 'dataset', m::jsonb, 0, 'test' FROM unnest($1::text[], $2::text[], $3::text[]) AS r(u, a, m)`,
        [ROWS.map((r) => r[0]), ROWS.map((r) => r[1]), ROWS.map((r) => JSON.stringify(r[2]))],
      );
    },
  });

const query = (text: string | undefined): SearchQuery => ({
  entityTypes: ['dataset'],
  ...(text !== undefined ? { query: text, parsed: parseSearchQuery(text) } : {}),
  filter: [],
  includeSoftDeleted: false,
  sort: [],
});

/** What the index answers: the total of a query, and the tag facet of everything. */
async function answers(store: Store) {
  const all = await store.search.search({ ...query(undefined), paging: { start: 0, count: 0 }, withTotal: true, facets: ['tags'] });
  const rare = await store.search.count(query('zanzibar'));
  return { total: all.total, tags: Object.fromEntries(all.facets!.get('tags') ?? []), rare };
}

const COMPLETE_ANSWERS = { total: DATASETS, tags: { 'urn:li:tag:even': DATASETS / 2, 'urn:li:tag:odd': DATASETS / 2 }, rare: DATASETS / 100 };

for (const backend of await backends()) {
  describe(`search index build over stored aspects: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    before(async () => {
      db = await backend.create();
      await writeOld(db, db.config.kind === 'sqlite' ? SQLITE_SEARCH_MIGRATION : POSTGRES_SEARCH_MIGRATION);
    });
    after(() => db?.drop());

    it('records the build at the migration, indexes a batch per call, and resumes after the process is gone', async () => {
      let store = await openStore(db.config);
      try {
        assert.deepEqual(await store.search.searchIndexBuild(), { complete: false, done: 0, total: ROWS.length });
        // Nothing indexed yet: the migration itself reads no aspect.
        assert.equal((await answers(store)).total, DATASETS);
        assert.equal((await answers(store)).rare, 0);
        assert.deepEqual(await store.search.continueSearchIndexBuild(1000), { complete: false, done: 1000, total: ROWS.length });
      } finally {
        // A crash between batches: the process goes, the committed batch stays.
        await store.database.close();
      }
      store = await openStore(db.config);
      try {
        assert.deepEqual(await store.search.searchIndexBuild(), { complete: false, done: 1000, total: ROWS.length });
        // A write meanwhile, past the cursor: indexed by the write, and replaced (not doubled) when the build reaches it.
        await store.aspects.write({
          ops: [
            {
              kind: 'aspect',
              entityType: 'dataset',
              urn: ds(DATASETS - 1),
              aspect: 'globalTags',
              value: { tags: [{ tag: 'urn:li:tag:odd' }] },
              systemMetadata: null,
            },
          ],
          actor: 'urn:li:corpuser:test',
          now: Date.now(),
        });
        assert.deepEqual(await store.search.continueSearchIndexBuild(1000), { complete: false, done: 2000, total: ROWS.length });
        assert.deepEqual(await store.search.continueSearchIndexBuild(1000), { complete: true, done: ROWS.length, total: ROWS.length });
        assert.deepEqual(await store.search.searchIndexBuild(), { complete: true, done: 0, total: 0 });
        assert.deepEqual(await answers(store), COMPLETE_ANSWERS);
      } finally {
        await store.database.close();
      }
    });

    it('builds in the background beside the server, logging its progress, and ends with the index the writes would make', async () => {
      const store = await openStore(db.config);
      const lines: Array<{ msg: string; done?: number; total?: number }> = [];
      const log = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(JSON.parse(chunk.toString()) as { msg: string });
            done();
          },
        }),
      );
      try {
        // Started over, as an operator's rebuild would: every aspect is indexed again, replacing what it held.
        assert.deepEqual(await store.search.restartSearchIndexBuild(), { complete: false, done: 0, total: ROWS.length });
        const builder = new SearchIndexBuilder(store, log, { batch: 500, logEveryMillis: 0 });
        builder.start();
        await builder.stop().then(() => undefined);
        // stop() lets the batch under way finish; the next start resumes after it.
        const stoppedAt = await store.search.searchIndexBuild();
        assert.ok(stoppedAt.complete || stoppedAt.done % 500 === 0);
        const again = new SearchIndexBuilder(store, log, { batch: 500, logEveryMillis: 0 });
        again.start();
        for (let i = 0; i < 500 && !(await store.search.searchIndexBuild()).complete; i++) await new Promise((r) => setTimeout(r, 10));
        await again.stop();
        assert.deepEqual(await store.search.searchIndexBuild(), { complete: true, done: 0, total: 0 });
        assert.deepEqual(await answers(store), COMPLETE_ANSWERS);
        const messages = lines.map((l) => l.msg);
        assert.ok(messages.includes('search index build resumed'));
        assert.ok(messages.includes('search index build complete'));
        assert.equal(lines.find((l) => l.msg === 'search index build complete')?.total, ROWS.length);
      } finally {
        await store.database.close();
      }
    });
  });
}

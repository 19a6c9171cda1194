import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import { SEARCH_POOL_SIZE, SEARCH_SESSION_NAME, sessionMatches, transactionMatches } from '../../src/storage/postgres/search-session.ts';
import { throughPooler } from '../../src/storage/open-store.ts';
import type { Store } from '../../src/storage/store.ts';
import { backends, onConnection, type TestDatabase } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

// The settings a PostgreSQL search's statements over every match run under (postgres/search-session.ts): on a pool of
// their own straight to the server, or in a transaction each behind a transaction-mode pooler; never on the writes'.

const SETTINGS = `SELECT current_setting('work_mem') AS work_mem, current_setting('random_page_cost') AS random_page_cost,
  current_setting('jit') AS jit, current_setting('transaction_read_only') AS ro, current_setting('application_name') AS app`;

/** The database's own server, not a pooler in front of it. */
const directUrl = (db: TestDatabase): string => (db.config.kind === 'postgres' ? (db.config.listenUrl ?? db.config.url) : '');

for (const backend of (await backends()).filter((b) => b.name === 'postgres')) {
  describe(`a search's settings: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    it('a search pool of its own: work_mem at least 16 MB, random_page_cost at most 1.1, no JIT, read-only, on every connection', async () => {
      // PostgreSQL's defaults, whatever this server's are.
      const matches = sessionMatches({ connectionString: directUrl(db), options: '-c work_mem=4MB -c random_page_cost=4' });
      try {
        const rows = await Promise.all([1, 2, 3].map(() => matches.run(SETTINGS, [])));
        for (const [r] of rows) assert.deepEqual(r, { work_mem: '16MB', random_page_cost: '1.1', jit: 'off', ro: 'on', app: SEARCH_SESSION_NAME });
      } finally {
        await matches.close();
      }
    });

    it("keeps the server's larger work_mem and smaller random_page_cost", async () => {
      const matches = sessionMatches({ connectionString: directUrl(db), options: '-c work_mem=64MB -c random_page_cost=1' });
      try {
        assert.deepEqual((await matches.run(SETTINGS, []))[0], {
          work_mem: '64MB',
          random_page_cost: '1',
          jit: 'off',
          ro: 'on',
          app: SEARCH_SESSION_NAME,
        });
      } finally {
        await matches.close();
      }
    });

    it("behind a pooler, each statement sets them in a transaction of its own, and the connection keeps the server's", async () => {
      const pool = new pg.Pool({ connectionString: directUrl(db), max: 1 });
      try {
        await pool.query('SET work_mem = 1024; SET random_page_cost = 4; SET jit = on');
        const [before] = (await pool.query(SETTINGS)).rows as Array<Record<string, string>>;
        const [inside] = await transactionMatches(pool).run(SETTINGS, []);
        assert.deepEqual({ ...inside, app: undefined }, { work_mem: '16MB', random_page_cost: '1.1', jit: 'off', ro: 'on', app: undefined });
        assert.deepEqual((await pool.query(SETTINGS)).rows[0], before);
        assert.deepEqual([before!.work_mem, before!.random_page_cost, before!.jit, before!.ro], ['1MB', '4', 'on', 'off']);
      } finally {
        await pool.end();
      }
    });

    it("the store's searches over every match go to the search pool when the store talks to the server itself, and to none behind a pooler", async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,session.orders,PROD)';
      await store.aspects.write({
        ops: [
          {
            kind: 'aspect',
            entityType: 'dataset',
            urn,
            aspect: 'datasetKey',
            value: { platform: 'urn:li:dataPlatform:hive', name: 'session.orders', origin: 'PROD' },
            systemMetadata: null,
          },
        ],
        actor: 'urn:li:corpuser:test',
        now: Date.now(),
      });
      const page = await store.search.search({
        entityTypes: ['dataset'],
        query: 'orders',
        parsed: parseSearchQuery('orders'),
        filter: [],
        includeSoftDeleted: false,
        sort: [],
        paging: { start: 0, count: 10 },
        withTotal: true,
      });
      assert.deepEqual([page.hits.map((h) => h.urn), page.total], [[urn], 1]);
      const sessions = await onConnection(db, {
        sqlite: () => 0,
        postgres: async (c) =>
          Number(
            (
              await c.query<{ n: string }>(
                `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
                [SEARCH_SESSION_NAME],
              )
            ).rows[0]!.n,
          ),
      });
      if (db.config.kind === 'postgres' && !throughPooler(db.config))
        assert.ok(sessions >= 1 && sessions <= SEARCH_POOL_SIZE, `${sessions} search sessions`);
      else assert.equal(sessions, 0);
    });
  });
}

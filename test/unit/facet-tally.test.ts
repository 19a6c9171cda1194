import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { facetList, facetTally, registerFacetFunctions } from '../../src/storage/sqlite/facet-tally.ts';

describe("SQLite's facet tally", () => {
  it('lists a document’s value numbers once each, ascending', () => {
    assert.equal(facetList([12, 3, 12, 7]), '3 7 12');
    assert.equal(facetList([]), '');
  });

  it('counts each number over the joined lists, whatever separates them, empty lists and all', () => {
    assert.deepEqual(JSON.parse(facetTally('3 7 12 3 12  7 120')), { 3: 2, 7: 2, 12: 2, 120: 1 });
    assert.deepEqual(JSON.parse(facetTally('')), {});
    assert.deepEqual(JSON.parse(facetTally(null)), {}, 'no match: group_concat is NULL');
    assert.deepEqual(JSON.parse(facetTally('9')), { 9: 1 }, 'a number at the very end');
  });

  it('counts the same one list at a time as an aggregate, NULL and empty lists skipped', () => {
    const db = new Database(':memory:');
    try {
      registerFacetFunctions(db);
      const lists = ['3 7 12', '', '3 120', null, '12'];
      const rows = lists.map((l) => `SELECT ${l === null ? 'NULL' : `'${l}'`} AS l`).join(' UNION ALL ');
      const one = db.prepare(`SELECT facet_count(l) AS c FROM (${rows})`).pluck().get() as string;
      const joined = db.prepare(`SELECT facet_tally(group_concat(l, ' ')) AS c FROM (${rows})`).pluck().get() as string;
      assert.deepEqual(JSON.parse(one), { 3: 2, 7: 1, 12: 2, 120: 1 });
      assert.deepEqual(JSON.parse(joined), JSON.parse(one));
    } finally {
      db.close();
    }
  });
});

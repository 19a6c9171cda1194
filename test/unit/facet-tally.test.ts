import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { facetList, facetTally } from '../../src/storage/sqlite/facet-tally.ts';

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
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import { foldText, indexedText, searchWords, unicodeIndexedText } from '../../src/catalog/search/search-tokens.ts';
import { CatalogError } from '../../src/catalog/errors.ts';
import { SEARCHABLE_ASPECTS, searchEntries } from '../../src/catalog/search/search-entries.ts';

describe('search words', () => {
  it('split on punctuation, camelCase and digit boundaries, folding case and accents', () => {
    assert.deepEqual(searchWords('sales_orders_2024'), ['sales', 'orders', '2024']);
    assert.deepEqual(searchWords('SalesOrders'), ['sales', 'orders']);
    assert.deepEqual(searchWords('HTMLParser v2.db-users'), ['html', 'parser', 'v', '2', 'db', 'users']);
    assert.deepEqual(searchWords('Café Crème'), ['cafe', 'creme']);
    assert.equal(indexedText('SalesOrders_x'), 'sales orders salesorders x');
  });

  it('split ASCII text by its characters exactly as the Unicode rules split it', () => {
    const fixed = [
      '',
      '_',
      'A',
      'a1B2c3',
      'ABCdef',
      'HTMLParser',
      'getHTTPResponseCode2xx',
      'x.Y-z_9',
      'AB',
      'aB',
      'Ab',
      '99bottlesOfBEER',
      '\tTab\nnew',
    ];
    // A fixed seed: the same strings on every run, mixing the classes each boundary rule looks at.
    let seed = 31;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const alphabet = 'aAbBzZ09_.- /:=()';
    const random = Array.from({ length: 3000 }, () => Array.from({ length: next() % 14 }, () => alphabet[next() % alphabet.length]).join(''));
    for (const text of [...fixed, ...random]) {
      assert.equal(indexedText(text), unicodeIndexedText(text), JSON.stringify(text));
      assert.equal(foldText(text), text.normalize('NFKD').toLowerCase(), JSON.stringify(text));
    }
    // Text with any other character takes the Unicode rules whole.
    assert.equal(indexedText('CaféOrders_2024'), 'cafe orders cafeorders 2024');
  });
});

describe('search query parser', () => {
  const words = (w: string[], extra: object = {}) => ({ kind: 'words', words: w, prefix: false, quoted: false, text: w.join(' '), ...extra });
  it('reads terms, phrases, exclusions, OR and parentheses as DataHub does', () => {
    assert.deepEqual(parseSearchQuery(''), { kind: 'all' });
    assert.deepEqual(parseSearchQuery('*'), { kind: 'all' });
    assert.deepEqual(parseSearchQuery('orders'), words(['orders']));
    const q = parseSearchQuery('sales -test ("daily orders" | weekly)');
    assert.equal(q.kind, 'and');
    assert.deepEqual(q.kind === 'and' && q.children[1], { kind: 'not', child: words(['test']) });
    const or = q.kind === 'and' ? q.children[2] : undefined;
    assert.equal(or?.kind, 'or');
    assert.deepEqual(or?.kind === 'or' && or.children[0], {
      kind: 'words',
      words: ['daily', 'orders'],
      prefix: false,
      quoted: true,
      text: 'daily orders',
    });
    assert.deepEqual(parseSearchQuery('ord*'), { kind: 'words', words: ['ord'], prefix: true, quoted: false, text: 'ord' });
    assert.deepEqual(parseSearchQuery('a OR b').kind, 'or');
    assert.deepEqual(parseSearchQuery('sales-orders'), {
      kind: 'words',
      words: ['sales', 'orders'],
      prefix: false,
      quoted: false,
      text: 'sales-orders',
    });
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    assert.equal(parseSearchQuery(urn).kind, 'words');
  });

  it('reads /q field queries, wildcards and _exists_', () => {
    assert.deepEqual(parseSearchQuery('/q name: *mask*'), { kind: 'wildcard', field: 'name', pattern: '*mask*' });
    assert.deepEqual(parseSearchQuery('/q fieldPaths: latitude'), {
      kind: 'words',
      words: ['latitude'],
      prefix: false,
      quoted: false,
      text: 'latitude',
      field: 'fieldPaths',
    });
    assert.deepEqual(parseSearchQuery('/q customProperties: encoding*'), {
      kind: 'words',
      words: ['encoding'],
      prefix: true,
      quoted: false,
      text: 'encoding',
      field: 'customProperties',
    });
    assert.deepEqual(parseSearchQuery('/q _exists_:name'), { kind: 'exists', field: 'name' });
    assert.deepEqual(parseSearchQuery('/q -_exists_:name'), { kind: 'not', child: { kind: 'exists', field: 'name' } });
    assert.deepEqual(parseSearchQuery('/q platform:hive AND name:users').kind, 'and');
  });

  it('refuses what it cannot read with a 400 naming the position', () => {
    for (const [query, at] of [
      ['(orders', 1],
      ['orders)', 7],
      ['"open phrase', 1],
      ['a |', 3],
      ['()', 1],
      ['-', 1],
      ['/q name:', 4],
      ['%%%', 1],
    ] as const) {
      assert.throws(
        () => parseSearchQuery(query),
        (e: unknown) => e instanceof CatalogError && e.code === 'BAD_REQUEST' && e.message.includes(`position ${at}:`),
        query,
      );
    }
  });
});

describe('search entries from @Searchable annotations', () => {
  it('an aspect contributes its annotated fields, with boosts, names, has-values flags and key=value properties', () => {
    const entries = searchEntries('dataset', 'datasetProperties', {
      name: 'SalesOrders',
      description: 'Daily orders',
      customProperties: { encoding: 'utf8' },
      created: { time: 1000 },
    });
    const by = (field: string) => entries.filter((e) => e.field === field);
    assert.deepEqual(
      by('name').map((e) => [e.value, e.boost, e.isName, e.autocomplete, e.byDefault]),
      [['SalesOrders', 10, true, true, true]],
    );
    assert.deepEqual(
      by('hasDescription').map((e) => e.value),
      ['true'],
    );
    assert.deepEqual(
      by('customProperties').map((e) => e.value),
      ['encoding=utf8'],
    );
    assert.deepEqual(
      by('createdAt').map((e) => [e.number, e.text]),
      [[1000, false]],
    );
    const key = searchEntries('dataset', 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' });
    assert.deepEqual(key.find((e) => e.field === 'origin')?.byDefault, false);
    assert.deepEqual(key.find((e) => e.field === 'id')?.isName, true);
    assert.deepEqual(searchEntries('dataset', 'upstreamLineage', { upstreams: [] }).find((e) => e.field === 'hasUpstreams')?.value, 'false');
    assert.deepEqual(searchEntries('dataset', 'datasetProfile', { rowCount: 3 }), []);
    assert.ok(SEARCHABLE_ASPECTS.has('ownership') && SEARCHABLE_ASPECTS.has('dashboardInfo') && !SEARCHABLE_ASPECTS.has('datasetProfile'));
  });
});

// Where one word search's time goes, on a catalog `npm run bench search -- --keep` loaded (issue 31): the store's
// search part called directly in this process (no HTTP, GraphQL or entity loading), for each word: the page alone,
// the page and the total, then with the 11 facets the console asks for; each the median of `--runs` after one warm-up
// of all three. `--cache-mb` sizes SQLite's page cache (ALMANAC_SQLITE_CACHE_MB; its default otherwise).
//
//   npm run bench word-cost -- --keep <sqlite file | postgres:// url> [--words archived,customers] [--runs 7] [--cache-mb 256]
import { parseSearchQuery } from '../src/catalog/search/search-query.ts';
import { SEARCH_FACETS } from '../src/catalog/search/search-facets.ts';
import { openStore } from '../src/storage/open-store.ts';
import type { SearchRequest } from '../src/storage/store.ts';
import { PERCENT_WORD } from './search-corpus.ts';
import { flag, fmt, intFlag, keptDatabase, median, printTable } from './support.ts';

export default async function wordCost(args: string[]): Promise<void> {
  const keep = flag(args, 'keep', '');
  if (keep === '') {
    console.log('(skipping: needs --keep, a catalog loaded by `npm run bench search -- --keep`)');
    return;
  }
  const words = flag(args, 'words', PERCENT_WORD).split(',');
  const runs = intFlag(args, 'runs', 7);
  const db = keptDatabase(keep);
  const cacheMib = flag(args, 'cache-mb', '') === '' ? undefined : intFlag(args, 'cache-mb', 1);
  if (cacheMib !== undefined && db.config.kind !== 'sqlite') throw new Error("--cache-mb sizes SQLite's page cache: PostgreSQL uses shared_buffers");
  const store = await openStore(db.config.kind === 'sqlite' && cacheMib !== undefined ? { ...db.config, cacheMib } : db.config);
  try {
    const rows: string[][] = [];
    for (const word of words) {
      const base: SearchRequest = {
        entityTypes: ['dataset'],
        query: word,
        parsed: parseSearchQuery(word),
        filter: [],
        includeSoftDeleted: false,
        sort: [],
        paging: { start: 0, count: 10 },
      };
      const parts: Array<[string, SearchRequest]> = [
        ['page', base],
        ['page and total', { ...base, withTotal: true }],
        ['page, total and 11 facets', { ...base, withTotal: true, facets: SEARCH_FACETS.map(([f]) => f) }],
      ];
      let total = 0;
      for (const [, req] of parts) total = (await store.search.search(req)).total ?? total;
      for (const [name, req] of parts) {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const started = process.hrtime.bigint();
          await store.search.search(req);
          times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        rows.push([word, fmt(total), name, fmt(median(times), 1)]);
      }
    }
    console.log(`\n${db.name}: ${keep}, the store alone, median of ${runs} (ms)${cacheMib === undefined ? '' : `, page cache ${cacheMib} MiB`}`);
    printTable(['word', 'matches', 'part', 'ms'], rows);
  } finally {
    await store.database.close();
  }
}

// A benchmark's server, in a process of its own so the load generator does not share its thread: Almanac as
// `createApp` builds it, on the database the parent created (its variables in the environment). Each argument turns
// one part off, everything else the same, for a ceiling measured in the same run:
//   log=off     the change log's rules log nothing (bench/events.bench.ts);
//   search=off  no aspect gives search entries, so writes maintain no search index (bench/search.bench.ts).
// Prints one JSON line with its address and an admin token, then serves until killed.
import { aspectIndexer, makeAspectIndexer } from '../src/catalog/relationships/aspect-indexer.ts';
import { changeEventRules } from '../src/catalog/events/change-event-rules.ts';
import type { AspectIndexer, ChangeEventRules } from '../src/storage/store.ts';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';

const PARTS = new Set(['log', 'search']);
const off = new Set<string>();
for (const arg of process.argv.slice(2)) {
  const part = arg.endsWith('=off') ? arg.slice(0, -'=off'.length) : '';
  if (!PARTS.has(part)) throw new Error(`bench-server: unknown argument ${arg} (log=off, search=off)`);
  off.add(part);
}
if (off.has('log')) Object.assign(changeEventRules as ChangeEventRules, { changeLog: () => [], timeseriesLog: () => [] });
if (off.has('search')) Object.assign(aspectIndexer as AspectIndexer, { index: makeAspectIndexer({ search: false }).index });
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const app = await createApp(config, createLogger(config.logLevel));
await app.server.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.server.address();
if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
const { token } = await app.services.tokens.mint({
  actorUrn: 'urn:li:corpuser:datahub',
  ownerUrn: 'urn:li:corpuser:datahub',
  duration: 'ONE_DAY',
  name: 'bench admin',
});
console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}`, token }));

// The events benchmark's server, in a process of its own so the load generator does not share its thread: Almanac as
// `createApp` builds it, on the database the parent created (its variables in the environment), with the change log
// on, or off (`off`: the rules log nothing, everything else the same: the ceiling). Prints one JSON line with its
// address and an admin token, then serves until killed.
import { changeEventRules } from '../src/catalog/events/change-event-rules.ts';
import type { ChangeEventRules } from '../src/storage/store.ts';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';

if (process.argv[2] === 'off') Object.assign(changeEventRules as ChangeEventRules, { changeLog: () => [], timeseriesLog: () => [] });
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gqlData, gqlError } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

// `datahub search diagnose` pings appConfig's telemetry to tell that the server is there before it searches.
for (const backend of await backends()) {
  describe(`GraphQL appConfig: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('answers the ping the datahub CLI sends, with the version and no third-party logging', async () => {
      const data = await gqlData(server, 'query ping { appConfig { appVersion telemetryConfig { enableThirdPartyLogging } } }');
      assert.equal(data.appConfig.telemetryConfig.enableThirdPartyLogging, false);
      assert.match(data.appConfig.appVersion, /^\d+\.\d+\.\d+/);
    });

    it('names a section of DataHub UI configuration it does not serve', async () => {
      await gqlError(server, '{ appConfig { viewsConfig { enabled } } }', undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: 'Cannot query field "viewsConfig" on type "AppConfig".',
      });
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gql } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const CREATE = 'mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken } }';

for (const backend of await backends()) {
  describe(`access token limits: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let reader: string;
    useServer(
      backend,
      async (s) => {
        server = s;
        reader = await actorWithRole(server, 'tess', 'Reader');
      },
      { ALMANAC_MAX_TOKENS_PER_USER: '3', ALMANAC_TOKEN_NAME_MAX_LENGTH: '10', ALMANAC_TOKEN_DESCRIPTION_MAX_LENGTH: '20' },
    );
    const create = (name: string, description?: string) =>
      gql(
        server,
        CREATE,
        { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:tess', duration: 'ONE_DAY', name, description } },
        { auth: reader },
      );
    const errorOf = async (name: string, description?: string) => {
      const res = await create(name, description);
      assert.equal(res.status, 200);
      return res.json.errors?.[0] as { message: string; extensions: { code: number } } | undefined;
    };

    it('bounds the name and description, naming the field and the limit', async () => {
      const long = await errorOf('n'.repeat(11));
      assert.equal(long?.extensions.code, 400);
      assert.match(long!.message, /'name' must be at most 10 characters/);
      const wordy = await errorOf('ok', 'd'.repeat(21));
      assert.equal(wordy?.extensions.code, 400);
      assert.match(wordy!.message, /'description' must be at most 20 characters/);
    });

    it('bounds the tokens of one user, naming the limit; revoking one makes room', async () => {
      // The test token actorWithRole made is the first of three.
      assert.equal(await errorOf('second'), undefined);
      assert.equal(await errorOf('third'), undefined);
      const over = await errorOf('fourth');
      assert.equal(over?.extensions.code, 400);
      assert.match(over!.message, /ALMANAC_MAX_TOKENS_PER_USER\) is 3/);
      const list = await gql(server, '{ listAccessTokens(input: { start: 0, count: 10 }) { total tokens { id name } } }', {}, { auth: reader });
      assert.equal(list.json.data.listAccessTokens.total, 3);
      const id = list.json.data.listAccessTokens.tokens.find((t: { name: string }) => t.name === 'second').id;
      const revoked = await gql(server, 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', { id }, { auth: reader });
      assert.equal(revoked.json.data?.revokeAccessToken, true, revoked.text);
      assert.equal(await errorOf('fourth'), undefined);
    });
  });
}

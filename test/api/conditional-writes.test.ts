import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,conditional.t${++seq},PROD)`;
const enc = encodeURIComponent;

for (const backend of await backends()) {
  describe(`conditional writes (DataHub's If-Version-Match and If-(Un)Modified-Since headers): ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const v3 = (urn: string, aspect: string, value: unknown, headers: Record<string, string>) =>
      server.request('POST', '/openapi/v3/entity/dataset?async=false', { body: [{ urn, [aspect]: { value, headers } }] });
    const description = async (urn: string) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=editableDatasetProperties&version=0`);
      return res.status === 404 ? undefined : res.json.aspect['com.linkedin.dataset.EditableDatasetProperties'].description;
    };

    it('writes when the version matches and refuses with 412 and nothing written when it does not', async () => {
      const urn = datasetUrn();
      // No aspect yet: its version is -1.
      const wrong = await v3(urn, 'editableDatasetProperties', { description: 'first' }, { 'If-Version-Match': '-10000' });
      assert.equal(wrong.status, 412, wrong.text);
      assert.match(wrong.json.message, /Expected version -10000, actual version -1/);
      assert.equal(await description(urn), undefined);
      assert.equal((await v3(urn, 'editableDatasetProperties', { description: 'first' }, { 'If-Version-Match': '-1' })).status, 200);
      // One version now; a writer that read it may replace it, a second writer that read the same version may not.
      assert.equal((await v3(urn, 'editableDatasetProperties', { description: 'second' }, { 'If-Version-Match': '1' })).status, 200);
      const late = await v3(urn, 'editableDatasetProperties', { description: 'lost update' }, { 'If-Version-Match': '1' });
      assert.equal(late.status, 412, late.text);
      assert.match(late.json.message, /Expected version 1, actual version 2/);
      assert.equal(await description(urn), 'second');
    });

    it('checks the headers of a Rest.li proposal too, refusing its whole batch', async () => {
      const urn = datasetUrn();
      const other = datasetUrn();
      const conditional = { ...mcp(urn, 'editableDatasetProperties', { description: 'x' }), headers: { 'If-Version-Match': '3' } };
      const res = await server.request('POST', '/aspects?action=ingestProposalBatch', {
        body: { proposals: [mcp(other, 'editableDatasetProperties', { description: 'y' }), conditional] },
      });
      assert.equal(res.status, 412, res.text);
      assert.match(res.json.message, /Expected version 3, actual version -1/);
      assert.equal(await description(other), undefined);
    });

    it('bounds the last modification with If-Modified-Since and If-Unmodified-Since, and names a bad header', async () => {
      const urn = datasetUrn();
      assert.equal((await v3(urn, 'editableDatasetProperties', { description: 'a' }, {})).status, 200);
      const past = new Date(Date.now() - 3_600_000).toISOString();
      const future = new Date(Date.now() + 3_600_000).toISOString();
      assert.equal((await v3(urn, 'editableDatasetProperties', { description: 'b' }, { 'If-Modified-Since': past })).status, 200);
      const notModified = await v3(urn, 'editableDatasetProperties', { description: 'c' }, { 'If-Modified-Since': future });
      assert.equal(notModified.status, 412, notModified.text);
      assert.match(notModified.json.message, /^.*Item last modified \d+ <= \d+ \(epoch ms\)/);
      const modified = await v3(urn, 'editableDatasetProperties', { description: 'd' }, { 'If-Unmodified-Since': past });
      assert.equal(modified.status, 412, modified.text);
      assert.match(modified.json.message, /Item last modified \d+ > \d+ \(epoch ms\)/);
      assert.equal(await description(urn), 'b');
      const bad = await v3(urn, 'editableDatasetProperties', { description: 'e' }, { 'If-Modified-Since': 'yesterday' });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.json.message, /If-Modified-Since/);
      const notStrings = await server.request('POST', '/openapi/v3/entity/dataset', {
        body: [{ urn, editableDatasetProperties: { value: { description: 'f' }, headers: { 'If-Version-Match': 1 } } }],
      });
      assert.equal(notStrings.status, 400, notStrings.text);
      assert.match(notStrings.json.message, /headers' must be a map of strings/);
    });
  });
}

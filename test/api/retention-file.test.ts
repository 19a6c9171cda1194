import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { backends, type TestDatabase } from '../support/databases.ts';
import { startTestServer } from '../support/server.ts';

const [backend] = await backends();

describe('ALMANAC_RETENTION_FILE seeds policies at start-up, as DataHub boot retention.yaml does', { skip: backend!.skip }, () => {
  let db: TestDatabase;
  let dir: string;
  before(async () => {
    db = await backend!.create();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-retention-'));
  });
  after(async () => {
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const policiesOf = async (file: string) => {
    const server = await startTestServer(db, { ALMANAC_RETENTION_FILE: file });
    try {
      return { server, policies: (await server.request('GET', '/api/retention')).json.policies };
    } finally {
      await server.close();
    }
  };

  it("reads DataHub's YAML form, and a policy set over the API since stays unless the entry forces it", async () => {
    const yaml = write(
      'retention.yaml',
      [
        '- entity: "*"',
        '  aspect: "*"',
        '  config:',
        '    retention:',
        '      version:',
        '        maxVersions: 20',
        '- entity: dataset',
        '  aspect: datasetProfile',
        '  config: { retention: { time: { maxAgeInSeconds: 7776000 } } }',
      ].join('\n'),
    );
    const first = await policiesOf(yaml);
    assert.deepEqual(
      first.policies.map((p: { entity: string; aspect: string; config: unknown; source: string }) => [p.entity, p.aspect, p.config, p.source]),
      [
        ['*', '*', { retention: { version: { maxVersions: 20 } } }, 'file'],
        ['dataset', 'datasetProfile', { retention: { time: { maxAgeInSeconds: 7776000 } } }, 'file'],
      ],
    );

    // An operator changes one policy over the API; the next start keeps it, and takes the file's other changes.
    const server = await startTestServer(db);
    const changed = await server.request('POST', '/api/retention', {
      body: { entity: '*', aspect: '*', config: { retention: { version: { maxVersions: 50 } } } },
    });
    assert.equal(changed.status, 200, changed.text);
    await server.close();
    const json = write(
      'retention.json',
      JSON.stringify([
        { entity: '*', aspect: '*', config: { retention: { version: { maxVersions: 10 } } } },
        { entity: 'dataset', aspect: 'datasetProfile', config: { retention: { time: { maxAgeInSeconds: 86400 } } } },
      ]),
    );
    const second = await policiesOf(json);
    assert.deepEqual(
      second.policies.map((p: { entity: string; config: { retention: unknown }; source: string }) => [p.entity, p.config.retention, p.source]),
      [
        ['*', { version: { maxVersions: 50 } }, 'api'],
        ['dataset', { time: { maxAgeInSeconds: 86400 } }, 'file'],
      ],
    );
    const forced = write(
      'forced.yaml',
      '- entity: "*"\n  aspect: "*"\n  forceOverwrite: true\n  config: { retention: { version: { maxVersions: 10 } } }\n',
    );
    const third = await policiesOf(forced);
    assert.deepEqual(third.policies[0].config.retention, { version: { maxVersions: 10 } });
    assert.equal(third.policies[0].source, 'file');
  });

  it('refuses to start on a file with a bad entry, naming the entry and the field, and stores nothing of it', async () => {
    const before = (await policiesOf(write('ok.yaml', '[]'))).policies;
    const bad = write(
      'bad.yaml',
      '- entity: dataset\n  aspect: "*"\n  config: { retention: { time: { maxAgeInSeconds: 60 } } }\n- entity: dataset\n  aspect: datasetProfile\n  config: { retention: { version: { maxVersions: 2 } } }\n',
    );
    await assert.rejects(startTestServer(db, { ALMANAC_RETENTION_FILE: bad }), /ALMANAC_RETENTION_FILE: entry 2: Field 'config.retention.version'/);
    await assert.rejects(startTestServer(db, { ALMANAC_RETENTION_FILE: path.join(dir, 'missing.yaml') }), /ALMANAC_RETENTION_FILE: cannot read/);
    assert.deepEqual((await policiesOf(write('ok2.yaml', '[]'))).policies, before);
  });
});

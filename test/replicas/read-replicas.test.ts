import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mcp } from '../support/fixtures.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';
import { replication, type Replication } from '../support/replication.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { TestDatabase } from '../support/databases.ts';

const pair = await replication();
const skip = 'skip' in pair ? pair.skip : undefined;
/** The 2,000 writes read back at once; the same again with replay paused. */
const ITERATIONS = Number(process.env.ALMANAC_TEST_RYW_ITERATIONS ?? 2_000);

/** One counter or gauge sample of a process's /metrics. */
async function metric(address: string, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${address}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function until(what: string, check: () => Promise<boolean>, millis = 15_000): Promise<void> {
  const deadline = Date.now() + millis;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('reads served by a streaming replica, never stale', { skip }, () => {
  const cluster = pair as Replication;
  let db: TestDatabase & { replicaUrl: string };
  let writer: TestServer;
  let reader: ServerProcess;
  let auth: Record<string, string>;
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,replicas.fresh,PROD)';

  before(async () => {
    db = await cluster.createDatabase();
    writer = await startTestServer(db);
    reader = await startServerProcess(db.env);
    auth = { Authorization: `Bearer ${writer.adminToken}`, 'Content-Type': 'application/json' };
    await until('the reader to see its replica up', async () => (await metric(reader.address, 'almanac_replica_up', 'replica="replica1"')) === 1);
  });
  after(async () => {
    await reader?.stop();
    await writer?.close();
    await db?.drop();
    await cluster.close();
  });

  const write = async (description: string) => {
    const res = await writer.request('POST', '/aspects?action=ingestProposal', {
      body: { proposal: mcp(urn, 'datasetProperties', { description }) },
    });
    assert.equal(res.status, 200, res.text);
  };
  /** The description process B answers, or the status it failed with. */
  const read = async (): Promise<string> => {
    const res = await fetch(`${reader.address}/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties&version=0`, { headers: auth });
    if (res.status !== 200) return `status ${res.status}`;
    const body = (await res.json()) as { aspect: Record<string, { description?: string }> };
    return Object.values(body.aspect)[0]!.description ?? '';
  };

  /** Writes through A and reads at once through B, `n` times; answers the stale reads and B's reads per handle. */
  const readYourWrites = async (n: number, tag: string) => {
    const before = { replica: await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"') };
    const stale: string[] = [];
    for (let i = 0; i < n; i++) {
      const expected = `${tag} ${i}`;
      await write(expected);
      const seen = await read();
      if (seen !== expected) stale.push(`wrote "${expected}", read "${seen}"`);
    }
    return { stale, replicaReads: (await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"')) - before.replica };
  };

  it(`reads every write at once through another process (${ITERATIONS} times), the replica serving what it has replayed`, async () => {
    const { stale, replicaReads } = await readYourWrites(ITERATIONS, 'streaming');
    assert.deepEqual(stale.slice(0, 5), []);
    // Reads of what was written earlier go to the replica: the freshness check passes once it has replayed.
    const older = await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"');
    for (let i = 0; i < 50; i++) assert.equal(await read(), `streaming ${ITERATIONS - 1}`);
    const served = (await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"')) - older;
    console.log(
      `read-your-writes: ${ITERATIONS} writes read back at once, ${replicaReads} reads on the replica; 50 later reads, ${served} on the replica`,
    );
    // Most, not all: background writes (scheduled claims, task heartbeats) move the primary on meanwhile. (With the
    // insert position as the target, a read's own page pruning kept about half of these on the primary.)
    assert.ok(served >= 45, `the replica served ${served} of 50 reads of settled data`);
  });

  it('falls back to the primary with replay paused: no stale read, no error', async () => {
    await cluster.onReplica(db, 'SELECT pg_wal_replay_pause()');
    try {
      await until(
        'the reader to see replay paused',
        async () => (await metric(reader.address, 'almanac_replica_replay_paused', 'replica="replica1"')) === 1,
      );
      const fallbacks = await metric(reader.address, 'almanac_replica_fallbacks_total', 'replica="replica1",reason="paused"');
      const { stale, replicaReads } = await readYourWrites(ITERATIONS, 'paused');
      assert.deepEqual(stale.slice(0, 5), []);
      assert.equal(replicaReads, 0);
      assert.ok((await metric(reader.address, 'almanac_replica_fallbacks_total', 'replica="replica1",reason="paused"')) - fallbacks >= ITERATIONS);
      assert.ok((await metric(reader.address, 'almanac_replica_lag_seconds', 'replica="replica1"')) > 0);
    } finally {
      await cluster.onReplica(db, 'SELECT pg_wal_replay_resume()');
    }
    await until('the replica to serve again', async () => {
      const before = await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"');
      await read();
      return (await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"')) > before;
    });
  });

  it('loses no request when the replica stops under load, and uses it again once it is back', async () => {
    await write('under load');
    let stop = false;
    const failures: string[] = [];
    let requests = 0;
    const load = async () => {
      while (!stop) {
        const seen = await read();
        requests++;
        if (seen !== 'under load') failures.push(seen);
      }
    };
    const workers = Array.from({ length: 8 }, load);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await cluster.stopReplica();
      await until('the reader to see its replica down', async () => (await metric(reader.address, 'almanac_replica_up', 'replica="replica1"')) === 0);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const whileDown = await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"');
      assert.equal((await fetch(`${reader.address}/ready`)).status, 200);
      await cluster.startReplica();
      await until(
        'traffic to return to the replica',
        async () => (await metric(reader.address, 'almanac_db_reads_total', 'handle="replica1"')) > whileDown + 100,
        30_000,
      );
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    assert.deepEqual(failures.slice(0, 5), []);
    assert.ok(requests > 100, `${requests} requests`);
  });
});

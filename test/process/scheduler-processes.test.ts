import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import type { Store } from '../../src/storage/store.ts';
import { createPostgresDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';

const skip = await postgresSkipReason();

describe('three Almanac processes sharing one PostgreSQL run a periodic job once per occurrence', { skip }, () => {
  let db: TestDatabase;
  let store: Store;
  const servers: ServerProcess[] = [];

  before(async () => {
    db = await createPostgresDatabase();
    store = await openStore(db.config);
    for (let i = 0; i < 3; i++) servers.push(await startServerProcess({ ...db.env, ALMANAC_HOUSEKEEPING_INTERVAL_SECONDS: '1' }));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.database.close();
    await db?.drop();
  });

  it('records each occurrence once, claimed once, and the processes together ran each exactly once', async () => {
    // Every process polls every second for the latest one-second occurrence: all three race for each.
    for (;;) {
      const finished = (await store.schedules.listScheduledRuns({ job: 'housekeeping', limit: 100 })).filter((r) => r.finishedAt !== null);
      if (finished.length >= 4) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all(servers.map((s) => s.stop()));
    const runs = await store.schedules.listScheduledRuns({ job: 'housekeeping', limit: 100 });
    assert.ok(runs.length >= 4, `${runs.length} occurrences`);
    for (const r of runs) {
      assert.equal(r.attempts, 1, JSON.stringify(r));
      assert.equal(r.outcome, 'completed', JSON.stringify(r));
      assert.equal(r.dueAt % 1000, 0);
    }
    assert.equal(new Set(runs.map((r) => r.dueAt)).size, runs.length);
    // What the processes say they ran: every finished occurrence, each by one process only.
    const ran = servers.flatMap((s) => s.log.filter((l) => l.msg === 'scheduled job ran' && l.job === 'housekeeping').map((l) => l.dueAt as number));
    assert.deepEqual(
      [...ran].sort((a, b) => a - b),
      runs.map((r) => r.dueAt).sort((a, b) => a - b),
    );
    assert.ok(new Set(runs.map((r) => r.nodeId)).size >= 1);
  });
});

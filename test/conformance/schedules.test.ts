import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { Store } from '../../src/storage/store.ts';
import { latestOccurrence, Scheduler } from '../../src/tasks/scheduler.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const MINUTE = 60_000;
const quiet = pino({ level: 'silent' });

for (const backend of await backends()) {
  describe(`scheduled runs: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));
    const claim = (job: string, dueAt: number, nodeId: string, now: number, leaseMillis = MINUTE) =>
      store.schedules.claimScheduledRun({ job, dueAt, nodeId, now, leaseMillis });

    it('lets one claimant of an occurrence win, even when they claim at once', async () => {
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((node) => claim('race', 1000, node, 5000)));
      assert.equal(results.filter(Boolean).length, 1);
      const [run] = await store.schedules.listScheduledRuns({ job: 'race', limit: 10 });
      assert.equal(run!.attempts, 1);
      assert.equal(run!.nodeId, ['a', 'b', 'c', 'd'][results.indexOf(true)]);
      // Another occurrence of the same job is a claim of its own.
      assert.equal(await claim('race', 2000, 'b', 5000), true);
    });

    it('never runs a finished occurrence again, and lets another node take over one whose lease ran out unfinished', async () => {
      assert.equal(await claim('lease', 1000, 'a', 10_000), true);
      assert.equal(await claim('lease', 1000, 'b', 10_000 + MINUTE - 1), false, 'the lease still holds');
      assert.equal(await claim('lease', 1000, 'b', 10_000 + MINUTE + 1), true, 'a lost claimant is taken over');
      // The first claimant's late finish changes nothing: the claim is b's now.
      await store.schedules.finishScheduledRun({ job: 'lease', dueAt: 1000, nodeId: 'a', now: 20_000, outcome: 'completed', error: null });
      assert.equal((await store.schedules.listScheduledRuns({ job: 'lease', limit: 1 }))[0]!.finishedAt, null);
      await store.schedules.finishScheduledRun({ job: 'lease', dueAt: 1000, nodeId: 'b', now: 80_000, outcome: 'failed', error: 'boom' });
      const [run] = await store.schedules.listScheduledRuns({ job: 'lease', limit: 1 });
      assert.deepEqual([run!.nodeId, run!.attempts, run!.finishedAt, run!.outcome, run!.error], ['b', 2, 80_000, 'failed', 'boom']);
      assert.equal(await claim('lease', 1000, 'c', 10 * MINUTE), false, 'finished, even as failed, is never claimed again');
    });

    it('prunes only finished runs due before the bound', async () => {
      await claim('prune', 100, 'a', 0);
      await store.schedules.finishScheduledRun({ job: 'prune', dueAt: 100, nodeId: 'a', now: 1, outcome: 'completed', error: null });
      await claim('prune', 200, 'a', 0);
      assert.equal(await store.schedules.pruneScheduledRuns(1000), 1);
      assert.deepEqual(
        (await store.schedules.listScheduledRuns({ job: 'prune', limit: 10 })).map((r) => r.dueAt),
        [200],
      );
    });

    it('runs each occurrence of a job once among schedulers sharing the database, by the injected clock', async () => {
      let now = Date.UTC(2026, 10, 24, 2, 59, 30);
      const clock = () => now;
      const ran: Array<[string, number]> = [];
      const schedulers = ['n1', 'n2', 'n3'].map((node) => {
        const s = new Scheduler(store, node, quiet, { clock });
        // Daily at 03:00 UTC.
        s.register({
          name: 'daily',
          intervalMillis: 24 * 60 * MINUTE,
          offsetMillis: 3 * 60 * MINUTE,
          run: async (dueAt) => void ran.push([node, dueAt]),
        });
        return s;
      });
      const tickAll = () => Promise.all(schedulers.map((s) => s.tick()));
      await tickAll();
      const yesterday = Date.UTC(2026, 10, 23, 3, 0);
      assert.deepEqual(
        ran.map(([, due]) => due),
        [yesterday],
        "the latest occurrence (yesterday's) runs once at start",
      );
      await tickAll();
      now += MINUTE; // 03:00:30
      await tickAll();
      await tickAll();
      assert.deepEqual(
        ran.map(([, due]) => due),
        [yesterday, Date.UTC(2026, 10, 24, 3, 0)],
      );
      assert.equal(latestOccurrence({ intervalMillis: 24 * 60 * MINUTE, offsetMillis: 3 * 60 * MINUTE }, now), Date.UTC(2026, 10, 24, 3, 0));
    });
  });
}

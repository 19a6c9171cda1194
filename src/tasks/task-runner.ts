import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Parts, TaskRecord, TaskRef } from '../storage/store.ts';
import { timeseriesAspectPairs } from '../catalog/registry/index.ts';
import { formatTaskId } from '../catalog/task-id.ts';

/** A random node id that never starts with '-' or '_': a task id is pasted after CLI commands, where '-x' reads as an option. */
function newNodeId(): string {
  const id = crypto.randomBytes(16).toString('base64url');
  return /^[-_]/.test(id) ? `n${id.slice(1)}` : id;
}

/** How long one step of the start-up sweep of retired tables may hold the database (SQLite runs it on this thread). */
const SWEEP_STEP_MILLIS = 50;

/** Why a task's signal was aborted. */
export type StopReason = 'cancelled' | 'shutdown';

/** Background work with one perform(); it records its own outcome. */
export interface BackgroundTask {
  readonly ref: TaskRef;
  /** Settles once the task has recorded its final state (it may keep tidying up after). */
  readonly ended: Promise<void>;
  perform(signal: AbortSignal): Promise<void>;
}

export interface TaskRunnerOptions {
  /** Defaults to a random id per process, shaped like an Elasticsearch node id. */
  readonly nodeId?: string;
  /** How often running tasks are marked alive and other nodes' tasks checked. */
  readonly tickMillis?: number;
  /** Where the backend cannot tell whether a node lives, a task silent this long is presumed orphaned. */
  readonly staleMillis?: number;
  readonly clock?: () => number;
}

export const INTERRUPTED_MESSAGE =
  'Interrupted: the Almanac process running this task stopped before it finished (crash or restart). ' +
  'Rows deleted so far stay deleted and counts are consistent; run the truncation again to finish.';

const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
};

/**
 * Runs background tasks in this process and keeps the shared task table
 * honest: it heartbeats its own tasks, stops them on cancel or shutdown, and
 * marks failed the running tasks whose process is gone, at start and on every tick.
 */
export class TaskRunner {
  readonly nodeId: string;
  private readonly active = new Map<number, { controller: AbortController; done: Promise<void>; task: BackgroundTask }>();
  private readonly tickMillis: number;
  private readonly staleMillis: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private sweeping: Promise<void> | undefined;
  private stopped = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly ports: Pick<Parts, 'tasks' | 'truncation'>,
    private readonly logger: Logger,
    options: TaskRunnerOptions = {},
  ) {
    this.nodeId = options.nodeId ?? newNodeId();
    this.tickMillis = options.tickMillis ?? 2000;
    this.staleMillis = options.staleMillis ?? 60_000;
    this.clock = options.clock ?? Date.now;
  }

  async start(): Promise<void> {
    await this.ports.tasks.registerTaskNode(this.nodeId);
    await this.failOrphans();
    this.sweeping = this.sweepRetired();
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, this.tickMillis);
    this.timer.unref();
  }

  /** Identity of the process for new task records. */
  owner(): { nodeId: string; ownerPid: number; ownerHost: string } {
    return { nodeId: this.nodeId, ownerPid: process.pid, ownerHost: os.hostname() };
  }

  launch(task: BackgroundTask): void {
    const controller = new AbortController();
    if (this.stopped) controller.abort('shutdown' satisfies StopReason);
    // Starts after the current request has been answered: SQLite steps run on this thread.
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => task.perform(controller.signal))
      .catch((err: unknown) => this.logger.error({ err, taskId: formatTaskId(task.ref) }, 'task crashed'))
      .finally(() => this.active.delete(task.ref.number));
    this.active.set(task.ref.number, { controller, done, task });
  }

  /** Settles when a task of this process records its end; undefined for any other task. */
  whenEnded(ref: TaskRef): Promise<void> | undefined {
    return ref.nodeId === this.nodeId ? this.active.get(ref.number)?.task.ended : undefined;
  }

  /** Aborted when the runner stops, so that nothing keeps waiting for tasks at shutdown. */
  get shutdownSignal(): AbortSignal {
    return this.stopping.signal;
  }

  /** Stops a task of this process at once, or flags it for its owner to stop at its next step. */
  async cancel(ref: TaskRef): Promise<TaskRecord | undefined> {
    const record = await this.ports.tasks.requestTaskCancel(ref);
    if (ref.nodeId === this.nodeId) this.active.get(ref.number)?.controller.abort('cancelled' satisfies StopReason);
    return record;
  }

  /** Stops every task at its next step (each records how far it got), then stops ticking. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearInterval(this.timer);
    for (const { controller } of this.active.values()) controller.abort('shutdown' satisfies StopReason);
    await Promise.all([...this.active.values()].map((a) => a.done));
    await this.ticking;
    await this.sweeping;
  }

  private async tick(): Promise<void> {
    try {
      await this.ports.tasks.heartbeatTasks(this.nodeId, this.clock());
      await this.failOrphans();
    } catch (err) {
      if (!this.stopped) this.logger.warn({ err }, 'task heartbeat failed');
    }
  }

  /**
   * Drops, in the background and a short step at a time, the retired day tables
   * of every index that no running task owns: those of a task whose reclaim a
   * crash or shutdown cut short would otherwise keep truncated rows on disk.
   */
  private async sweepRetired(): Promise<void> {
    for (const index of timeseriesAspectPairs()) {
      for (;;) {
        if (this.stopped) return;
        try {
          if ((await this.ports.truncation.reclaimTimeseriesSpace(index, 0, SWEEP_STEP_MILLIS)).done) break;
        } catch (err) {
          if (!this.stopped) this.logger.warn({ err, index }, 'could not drop retired day tables at start-up');
          break;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Marks failed the running tasks of processes that are gone, and passes on cancel requests to this process's tasks. */
  private async failOrphans(): Promise<void> {
    for (const t of await this.ports.tasks.listTasks({ state: 'running', limit: 1000 })) {
      if (t.nodeId === this.nodeId) {
        if (t.cancelRequested) this.active.get(t.number)?.controller.abort('cancelled' satisfies StopReason);
        continue;
      }
      if (await this.ownerAlive(t)) continue;
      const failed = await this.ports.tasks.updateTask(
        t,
        { state: 'failed', endedAt: this.clock(), error: INTERRUPTED_MESSAGE },
        { whileRunning: true },
      );
      if (failed) this.logger.warn({ taskId: formatTaskId(t), kind: t.kind, progress: t.progress }, 'marked an interrupted task failed');
    }
  }

  private async ownerAlive(t: TaskRecord): Promise<boolean> {
    const known = await this.ports.tasks.isTaskNodeAlive(t.nodeId);
    if (known !== undefined) return known;
    // Reached only without a node registry (SQLite, whose file one process uses at a time): a restarted
    // container often gets its predecessor's pid (1), which is then this process, not the owner.
    if (t.ownerHost === os.hostname() && (t.ownerPid === process.pid || !pidAlive(t.ownerPid))) return false;
    return this.clock() - t.heartbeatAt < this.staleMillis;
  }
}

import type { Logger } from 'pino';
import type { Parts } from '../storage/store.ts';

/** A periodic job: run once per occurrence across every process sharing the database. */
export interface ScheduledJob {
  readonly name: string;
  /** Occurrences fall every `intervalMillis` from the epoch, shifted by `offsetMillis` (a daily job at 03:00 UTC: 1 day, 3 h). */
  readonly intervalMillis: number;
  readonly offsetMillis?: number;
  /** How long a claim holds before another process may take over an occurrence its claimant left unfinished. */
  readonly leaseMillis?: number;
  run(dueAt: number, signal: AbortSignal): Promise<void>;
}

export interface SchedulerOptions {
  readonly clock?: () => number;
  /** How often due occurrences are looked for. */
  readonly pollMillis?: number;
  /** Told of each occurrence this process ran, and how it ended (metrics). */
  readonly onRun?: (job: string, outcome: 'completed' | 'failed') => void;
}

const DEFAULT_LEASE_MILLIS = 10 * 60_000;

/** The latest occurrence of the job at or before `now`. */
export function latestOccurrence(job: Pick<ScheduledJob, 'intervalMillis' | 'offsetMillis'>, now: number): number {
  const offset = job.offsetMillis ?? 0;
  return Math.floor((now - offset) / job.intervalMillis) * job.intervalMillis + offset;
}

/**
 * Runs registered jobs once per occurrence across processes: every process computes the same occurrence times from
 * the clock, and the one whose claim the database accepts (`claimScheduledRun`, a row per occurrence) runs it. An
 * occurrence missed while no process was up is not made up for; the next one runs. A claimant that dies leaves its
 * occurrence to be taken over once its lease runs out.
 */
export class Scheduler {
  private readonly jobs: ScheduledJob[] = [];
  /** The latest occurrence of each job this process has seen to (run, or found claimed elsewhere). */
  private readonly handled = new Map<string, number>();
  private readonly clock: () => number;
  private readonly pollMillis: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly ports: Pick<Parts, 'schedules'>,
    private readonly nodeId: string,
    private readonly logger: Logger,
    private readonly options: SchedulerOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.pollMillis = options.pollMillis ?? 1000;
  }

  register(job: ScheduledJob): void {
    if (!(job.intervalMillis > 0)) throw new Error(`scheduled job ${job.name}: the interval must be positive`);
    this.jobs.push(job);
  }

  start(): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, this.pollMillis);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
  }

  /** Runs every job whose latest occurrence this process has not seen to yet, if it wins the claim. */
  async tick(): Promise<void> {
    for (const job of this.jobs) {
      if (this.stopping.signal.aborted) return;
      const now = this.clock();
      const dueAt = latestOccurrence(job, now);
      if ((this.handled.get(job.name) ?? -Infinity) >= dueAt) continue;
      try {
        const claimed = await this.ports.schedules.claimScheduledRun({
          job: job.name,
          dueAt,
          nodeId: this.nodeId,
          now,
          leaseMillis: job.leaseMillis ?? DEFAULT_LEASE_MILLIS,
        });
        this.handled.set(job.name, dueAt);
        if (claimed) await this.runClaimed(job, dueAt);
      } catch (err) {
        // The database may be away: the occurrence is tried again at the next poll.
        this.logger.warn({ err, job: job.name, dueAt }, 'could not claim a scheduled job');
      }
    }
  }

  private async runClaimed(job: ScheduledJob, dueAt: number): Promise<void> {
    let outcome: 'completed' | 'failed' = 'completed';
    let error: string | null = null;
    try {
      await job.run(dueAt, this.stopping.signal);
    } catch (err) {
      outcome = 'failed';
      error = (err as Error).message ?? String(err);
      this.logger.error({ err, job: job.name, dueAt }, 'scheduled job failed');
    }
    await this.ports.schedules.finishScheduledRun({ job: job.name, dueAt, nodeId: this.nodeId, now: this.clock(), outcome, error });
    this.options.onRun?.(job.name, outcome);
    this.logger.info({ job: job.name, dueAt, outcome }, 'scheduled job ran');
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Parts, SearchIndexBuild } from '../../storage/store.ts';

export interface BuilderOptions {
  /** Aspects indexed per transaction. */
  readonly batch?: number;
  /** How often progress goes to the log. */
  readonly logEveryMillis?: number;
  /** The wait before trying again after a failed batch. */
  readonly retryMillis?: number;
}

/**
 * Builds the search index over the aspects a database held before it had one (the migration that creates the index
 * records the build; storage/ports/search.ts): a batch per transaction, each recording how far it got, so a crash or a
 * stop loses at most one batch and the next start resumes there. It runs beside the server, yielding between batches,
 * and logs its progress; searches meanwhile read what is indexed so far, and say so in the log (`EntitySearch`).
 */
export class SearchIndexBuilder {
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly o: Required<BuilderOptions>;

  constructor(
    private readonly ports: Pick<Parts, 'search'>,
    private readonly log: Logger,
    options: BuilderOptions = {},
  ) {
    this.o = { batch: 1000, logEveryMillis: 10_000, retryMillis: 5_000, ...options };
  }

  start(): void {
    this.running ??= this.run().catch((err: unknown) => this.log.error({ err }, 'search index build stopped'));
  }

  /** Stops after the batch under way; the next start resumes after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(): Promise<void> {
    let state = await this.ports.search.searchIndexBuild();
    if (state.complete) return;
    this.log.info({ done: state.done, total: state.total }, 'search index build resumed');
    const started = Date.now();
    const doneAtStart = state.done;
    let logged = started;
    while (!state.complete && !this.stopped) {
      state = await this.next(state);
      // Requests waiting on the event loop go first.
      await new Promise((resolve) => setImmediate(resolve));
      const now = Date.now();
      if (now - logged >= this.o.logEveryMillis && !state.complete) {
        logged = now;
        this.log.info(progress(state, doneAtStart, started, now), 'search index build progress');
      }
    }
    if (state.complete) this.log.info(progress(state, doneAtStart, started, Date.now()), 'search index build complete');
  }

  /** One batch; a failure is logged and the batch tried again after a pause (a database restart, a lock timeout). */
  private async next(state: SearchIndexBuild): Promise<SearchIndexBuild> {
    try {
      return await this.ports.search.continueSearchIndexBuild(this.o.batch);
    } catch (err) {
      this.log.warn({ err, done: state.done, total: state.total }, 'search index build batch failed; trying again');
      await sleep(this.o.retryMillis);
      return state;
    }
  }
}

function progress(state: SearchIndexBuild, doneAtStart: number, started: number, now: number) {
  const seconds = (now - started) / 1000;
  return {
    done: state.done,
    total: state.total,
    percent: state.total > 0 ? Math.round((1000 * state.done) / state.total) / 10 : 100,
    perSecond: seconds > 0 ? Math.round((state.done - doneAtStart) / seconds) : 0,
  };
}

/**
 * This process's news of entries committed to the change log: a generation that moves with every wake, and the long
 * polls waiting for it to move. SQLite wakes it after its own commits (one process holds the file); PostgreSQL wakes
 * it on each notification of `EVENT_LOG_CHANNEL`, which every logging transaction sends at its commit, from any
 * process. A poll takes the generation before it reads, so an entry committed between its read and its wait is not
 * slept through.
 */
export const EVENT_LOG_CHANNEL = 'almanac_event_log';

export class LogSignal {
  private generation = 0;
  private readonly waiters = new Set<() => void>();

  current(): number {
    return this.generation;
  }

  wake(): void {
    this.generation++;
    for (const done of [...this.waiters]) done();
  }

  /** Resolves with the generation once it has moved past `since`, or after `timeoutMs`. */
  wait(since: number, timeoutMs: number): Promise<number> {
    if (this.generation !== since || timeoutMs <= 0) return Promise.resolve(this.generation);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(this.generation);
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
}

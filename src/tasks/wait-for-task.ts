import type { TaskRecord, TaskRef } from '../storage/store.ts';
import type { TaskRunner } from './task-runner.ts';

const WAIT_POLL_MILLIS = 100;

/**
 * The task once it is no longer running, or as it stands after `maxMillis` (or at shutdown); undefined if `read`
 * finds no such task. A task of this process says when it ends; another process's task is read again every so often.
 */
export async function waitForTaskEnd<T extends Pick<TaskRecord, 'state'>>(
  runner: Pick<TaskRunner, 'whenEnded' | 'shutdownSignal'>,
  read: (ref: TaskRef) => Promise<T | undefined>,
  ref: TaskRef,
  maxMillis: number,
  clock: () => number = Date.now,
): Promise<T | undefined> {
  const deadline = clock() + maxMillis;
  let local = runner.whenEnded(ref);
  for (;;) {
    const task = await read(ref);
    const left = deadline - clock();
    const shutdown = runner.shutdownSignal;
    if (!task || task.state !== 'running' || left <= 0 || shutdown.aborted) return task;
    const ended = local ?? new Promise<void>((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MILLIS, left)));
    local = undefined;
    let timer: NodeJS.Timeout | undefined;
    let onShutdown: (() => void) | undefined;
    await Promise.race([
      ended,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
      new Promise<void>((resolve) => shutdown.addEventListener('abort', (onShutdown = () => resolve()), { once: true })),
    ]);
    clearTimeout(timer);
    shutdown.removeEventListener('abort', onShutdown!);
  }
}

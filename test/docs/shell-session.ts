import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface StepResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

// A byte no example prints: it frames the status written after each step.
const MARK = '\u001f';

/**
 * One bash process that runs steps one after another, as a person pasting them into a terminal: variables and
 * functions a step defines stay for the next. Each step gets /dev/null as standard input, so a command that reads
 * it cannot swallow the steps that follow.
 */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private wake: (() => void) | undefined;

  constructor(options: { cwd: string; env: NodeJS.ProcessEnv; prelude: string }) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd: options.cwd, env: options.env });
    this.bash.stdout.on('data', (d: Buffer) => this.received('stdout', d));
    this.bash.stderr.on('data', (d: Buffer) => this.received('stderr', d));
    // A shell that ends (under `set -u`, an undefined variable ends it) wakes the step waiting on it.
    this.bash.on('close', () => this.wake?.());
    this.bash.stdin.on('error', () => {}); // writing to a shell that has ended: reported by run()
    this.bash.stdin.write(`${options.prelude}\n`);
  }

  private received(stream: 'stdout' | 'stderr', data: Buffer): void {
    this[stream] += data.toString();
    this.wake?.();
  }

  /** Why the shell ended, if it has: its last error line (bash's `NAME: unbound variable` under `set -u`). */
  private ended(): string | undefined {
    if (this.bash.exitCode === null && this.bash.signalCode === null) return undefined;
    const last = this.stderr.trim().split('\n').at(-1) ?? '';
    return last || `exit ${this.bash.exitCode ?? this.bash.signalCode}`;
  }

  async run(command: string): Promise<StepResult> {
    const gone = this.ended();
    if (gone !== undefined) throw new Error(`the shell ended at an earlier step: ${gone}`);
    this.stdout = '';
    this.stderr = '';
    this.bash.stdin.write(`{\n${command}\n} </dev/null\nprintf '${MARK}%d${MARK}' "$?"; printf '${MARK}' >&2\n`);
    const done = new RegExp(`${MARK}(\\d+)${MARK}$`);
    while (!(done.test(this.stdout) && this.stderr.endsWith(MARK))) {
      const why = this.ended();
      if (why !== undefined) throw new Error(`bash exited: ${why}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const status = Number(done.exec(this.stdout)![1]);
    return { status, stdout: this.stdout.replace(done, ''), stderr: this.stderr.slice(0, -1) };
  }

  close(): void {
    this.bash.stdin.end();
  }
}

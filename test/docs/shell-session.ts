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
    this.bash.stdin.write(`${options.prelude}\n`);
  }

  private received(stream: 'stdout' | 'stderr', data: Buffer): void {
    this[stream] += data.toString();
    this.wake?.();
  }

  async run(command: string): Promise<StepResult> {
    this.stdout = '';
    this.stderr = '';
    this.bash.stdin.write(`{\n${command}\n} </dev/null\nprintf '${MARK}%d${MARK}' "$?"; printf '${MARK}' >&2\n`);
    const done = new RegExp(`${MARK}(\\d+)${MARK}$`);
    while (!(done.test(this.stdout) && this.stderr.endsWith(MARK))) {
      if (this.bash.exitCode !== null) throw new Error(`bash exited: ${this.stderr}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const status = Number(done.exec(this.stdout)![1]);
    return { status, stdout: this.stdout.replace(done, ''), stderr: this.stderr.slice(0, -1) };
  }

  close(): void {
    this.bash.stdin.end();
  }
}

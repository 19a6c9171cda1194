/** A README example block cut into steps: one shell command each, with the output the README shows for it, if any. */
export interface ExampleStep {
  /** The line of README.md the command starts on. */
  readonly line: number;
  readonly command: string;
  /** The output the README shows (`# {...}` lines right after the command, continued on `#   ` lines); `...` stands for anything. */
  readonly expected: string | undefined;
}

/** The fence info string that marks a block as runnable: the README example test runs these, in order. */
export const EXAMPLE_FENCE = '```sh example';

/** Every runnable block of a markdown text, cut into steps, in order. */
export function exampleSteps(markdown: string): ExampleStep[] {
  const lines = markdown.split('\n');
  const steps: ExampleStep[] = [];
  let inBlock = false;
  let command: string[] = [];
  let start = 0;
  let expected: string[] = [];
  const flush = () => {
    if (command.length) steps.push({ line: start + 1, command: command.join('\n'), expected: expected.length ? expected.join('') : undefined });
    command = [];
    expected = [];
  };
  for (const [i, line] of lines.entries()) {
    if (!inBlock) {
      inBlock = line.trim() === EXAMPLE_FENCE;
      continue;
    }
    if (line.startsWith('```')) {
      flush();
      inBlock = false;
      continue;
    }
    const continuing = command.length > 0 && command.at(-1)!.endsWith('\\');
    if (continuing) {
      command.push(line);
    } else if (/^# [{[]/.test(line) && command.length > 0) {
      expected.push(line.slice(2));
    } else if (/^# {3}\S/.test(line) && expected.length > 0) {
      expected.push(line.slice(4)); // a long output continues on an indented comment line
    } else if (line.trim() === '' || line.startsWith('#')) {
      flush();
    } else {
      flush();
      command = [line];
      start = i;
    }
  }
  return steps;
}

/** The README's shown output as a pattern: exact text, except that `...` (or `, ...`, for more items) matches anything. */
export function outputPattern(expected: string): RegExp {
  const parts = expected.split(/(?:, )?\.\.\./).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}

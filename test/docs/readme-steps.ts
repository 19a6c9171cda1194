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

/** A fenced shell block (```sh, ```sh example, ```bash) of a markdown text: the line its fence is on and its text. */
export interface ShellBlock {
  readonly line: number;
  readonly runnable: boolean;
  readonly text: string;
}

export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const info = /^```(sh|bash)(?:\s+(\S+))?\s*$/.exec(lines[i]!.trim());
    if (!info) {
      if (lines[i]!.startsWith('```')) while (++i < lines.length && !lines[i]!.startsWith('```'));
      continue;
    }
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith('```')) body.push(lines[i]!);
    blocks.push({ line: start + 1, runnable: lines[start]!.trim() === EXAMPLE_FENCE, text: body.join('\n') });
  }
  return blocks;
}

/** A shell text without its comment lines and its single-quoted strings, which expand nothing. */
function expandingText(text: string): string {
  let out = '';
  let double = false;
  for (const line of text.split('\n')) {
    if (!double && /^\s*#/.test(line)) continue;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === '\\') {
        i++;
      } else if (c === "'" && !double) {
        const end = line.indexOf("'", i + 1);
        i = end < 0 ? line.length : end;
      } else {
        if (c === '"') double = !double;
        out += c;
      }
    }
    out += '\n';
  }
  return out;
}

/** The variables a shell text expands (`$NAME`, `${NAME...}`), outside single quotes and comment lines. */
export function expandedVariables(text: string): string[] {
  return [...new Set([...expandingText(text).matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
}

/** The variables a shell text assigns (`NAME=`, `export NAME=`, `for NAME in`, `read NAME`). */
export function assignedVariables(text: string): string[] {
  const names = [...text.matchAll(/(?:^|[\s;(&|])(?:export\s+|local\s+)?([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]!);
  names.push(...[...text.matchAll(/\b(?:for|read)\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
  return [...new Set(names)];
}

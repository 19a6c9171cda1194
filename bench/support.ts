import { backends, type TestDatabase } from '../test/support/databases.ts';

/** `--name value` flags of a benchmark, with defaults. */
export function flag(args: readonly string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
}

export const intFlag = (args: readonly string[], name: string, fallback: number): number => {
  const n = Number(flag(args, name, String(fallback)));
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
};

/** The backends a benchmark runs on: `--backend sqlite|postgres|all` (default all reachable). */
export async function benchBackends(args: readonly string[]): Promise<Array<{ name: string; create: () => Promise<TestDatabase> }>> {
  const wanted = flag(args, 'backend', 'all');
  const out = [];
  for (const b of await backends()) {
    if (wanted !== 'all' && wanted !== b.name) continue;
    if (b.skip) {
      console.log(`(skipping ${b.name}: ${b.skip})`);
      continue;
    }
    out.push(b);
  }
  return out;
}

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints a Markdown table, so results paste straight into the README. */
export function printTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Measures the ceiling (`on` false) and the thing measured (`on` true) `rounds` times each, alternating which goes first
 * in a round, so that a machine growing faster or slower during the run weighs on both sides; each side's figures in
 * the order measured.
 */
export async function alternatingRounds(
  rounds: number,
  measure: (on: boolean, round: number) => Promise<number>,
): Promise<{ readonly off: number[]; readonly on: number[] }> {
  const out = { off: [] as number[], on: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const on of round % 2 === 0 ? [false, true] : [true, false]) (on ? out.on : out.off).push(await measure(on, round));
  }
  return out;
}

/** The middle of the values (the mean of the two middle ones for an even count). */
export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};

/** The database `--keep` names, kept after the run. */
export function keptDatabase(place: string): TestDatabase {
  const postgres = /^postgres(ql)?:\/\//.test(place);
  const url = postgres ? place : `sqlite:${place}`;
  return {
    name: postgres ? 'postgres' : 'sqlite',
    config: postgres ? { kind: 'postgres', url } : { kind: 'sqlite', path: place },
    url,
    env: { ALMANAC_DATABASE_URL: url },
    drop: async () => undefined,
  };
}

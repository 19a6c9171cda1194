import Table from 'cli-table3';
import { usageError } from './exit-codes.ts';

/** Colour and progress bars only on a terminal. */
export const isTty = (): boolean => process.stdout.isTTY === true;

const wrap = (code: string) => (s: string) => (isTty() ? `\u001b[${code}m${s}\u001b[0m` : s);
export const bold = wrap('1');
export const red = wrap('31');
export const yellow = wrap('33');
export const green = wrap('32');
export const dim = wrap('2');

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printTable(head: string[], rows: Array<Array<string | number>>): void {
  const table = new Table({ head: head.map((h) => bold(h)), style: { head: [], border: [] } });
  table.push(...rows.map((r) => r.map(String)));
  process.stdout.write(`${table.toString()}\n`);
}

export const isoDate = (millis: number | null | undefined): string => (millis == null ? '-' : new Date(millis).toISOString().slice(0, 10));
export const isoTime = (millis: number | null | undefined): string => (millis == null ? '-' : new Date(millis).toISOString().replace('.000Z', 'Z'));

/** Parses `90d`, `12h`, `30m` into milliseconds. */
export function parseAge(value: string, flag = '--older-than'): number {
  const m = /^(\d+)([dhm])$/.exec(value.trim());
  if (!m) throw usageError(`${flag} must look like 90d, 12h or 30m, got "${value}"`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  return Number(m[1]) * unit;
}

/** Parses an ISO date (2026-01-01) or date-time into epoch milliseconds, UTC. */
export function parseDate(value: string, flag: string): number {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(t)) throw usageError(`${flag} must be a date like 2026-01-01, got "${value}"`);
  return t;
}

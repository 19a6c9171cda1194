/** Parses Rest.li's `aspects=List(a,b)` query form (also a plain comma list). */
export function aspectList(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  const inner = raw.startsWith('List(') && raw.endsWith(')') ? raw.slice(5, -1) : raw;
  return inner
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

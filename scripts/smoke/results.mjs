// Reading a pytest run: its closing counts (as pytest prints them, so they match what a person running it sees) and,
// from its JUnit XML, each test that did not pass with the first line of its reason.
import fs from 'node:fs';

const OUTCOMES = {
  passed: 'passed',
  failed: 'failed',
  error: 'errors',
  errors: 'errors',
  skipped: 'skipped',
  xfailed: 'xfailed',
  xpassed: 'xpassed',
};

/** `{ passed, failed, errors, skipped, xfailed, xpassed }` from pytest's last `=== ... in 12.3s ===` line. */
export function pytestCounts(output) {
  const counts = { passed: 0, failed: 0, errors: 0, skipped: 0, xfailed: 0, xpassed: 0 };
  const closing = output
    .split('\n')
    .reverse()
    .find((l) => /^=+ .* in [\d.]+s( \([^)]*\))? =+$/.test(l));
  if (!closing) return undefined;
  for (const [, n, word] of closing.matchAll(/(\d+) (\w+)/g)) {
    const key = OUTCOMES[word];
    if (key) counts[key] += Number(n);
  }
  return counts;
}

const unescape = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#10;/g, ' ')
    .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
    .replace(/&amp;/g, '&');

/** Tests that failed or errored, `{ test, outcome, reason }`, from pytest's JUnit XML (no XML library needed for its flat form). */
export function junitProblems(file) {
  if (!fs.existsSync(file)) return [];
  const xml = fs.readFileSync(file, 'utf8');
  const problems = [];
  for (const [, attrs, body] of xml.matchAll(/<testcase ([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (!body) continue;
    const attr = (name) => unescape(new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? '');
    const test = `${attr('classname')}::${attr('name')}`;
    for (const [, kind, message] of body.matchAll(/<(failure|error)\b[^>]*?message="([^"]*)"/g)) {
      problems.push({ test, outcome: kind === 'failure' ? 'failed' : 'error', reason: unescape(message).slice(0, 300) });
    }
  }
  return problems;
}

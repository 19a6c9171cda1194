import type { AspectLatest } from '../storage/store.ts';
import { badRequest, preconditionFailed } from './errors.ts';
import type { Proposal } from './proposals.ts';

/** What DataHub's ConditionalWriteValidator reports for an aspect that has no version, and for its modification time. */
const UNVERSIONED = '-1';
const NEVER_MODIFIED = '-9223372036854775808';

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

function epochMs(value: string, name: string): number {
  // DataHub parses these as ISO-8601 instants (Instant.parse).
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`Header '${name}' must be an ISO-8601 instant such as 2026-01-01T00:00:00Z, got ${JSON.stringify(value)}`);
  return ms;
}

/**
 * DataHub's conditional writes (ConditionalWriteValidator): a proposal's `If-Version-Match` header must name the
 * aspect's current version (the number of versions it has had; -1 when it has none, or for a CREATE), and
 * `If-Modified-Since` / `If-Unmodified-Since` (ISO-8601) bound when it was last written. The check runs inside the
 * write on the locked latest version; a failed one refuses the whole batch with 412 and DataHub's message. Undefined
 * for a proposal without those headers, or a RESTATE, which DataHub does not check.
 */
export function preconditionOf(p: Proposal): ((latest: AspectLatest | undefined) => void) | undefined {
  if (!p.headers || p.changeType === 'RESTATE') return undefined;
  const version = header(p.headers, 'If-Version-Match');
  const modifiedSince = header(p.headers, 'If-Modified-Since');
  const unmodifiedSince = header(p.headers, 'If-Unmodified-Since');
  if (version === undefined && modifiedSince === undefined && unmodifiedSince === undefined) return undefined;
  const after = modifiedSince === undefined ? undefined : epochMs(modifiedSince, 'If-Modified-Since');
  const notAfter = unmodifiedSince === undefined ? undefined : epochMs(unmodifiedSince, 'If-Unmodified-Since');
  const create = p.changeType === 'CREATE';
  return (latest) => {
    const current = create ? undefined : latest;
    const actual = current ? String(Math.max(1, current.versions)) : UNVERSIONED;
    if (version !== undefined && version !== actual) throw preconditionFailed(`Expected version ${version}, actual version ${actual}`);
    const modified = current?.modifiedAt;
    const shown = modified === undefined ? NEVER_MODIFIED : String(modified);
    if (after !== undefined && !(modified !== undefined && modified > after))
      throw preconditionFailed(`Item last modified ${shown} <= ${after} (epoch ms)`);
    if (notAfter !== undefined && modified !== undefined && modified > notAfter)
      throw preconditionFailed(`Item last modified ${shown} > ${notAfter} (epoch ms)`);
  };
}

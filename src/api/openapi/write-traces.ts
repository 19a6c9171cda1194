import type { FastifyReply } from 'fastify';
import { CatalogError } from '../../catalog/errors.ts';
import type { Proposal } from '../../catalog/proposals.ts';
import { newTraceId, traceparentOf, withTraceId } from '../../catalog/trace/trace-id.ts';
import type { AppContext } from '../context.ts';

/** How many refused traced writes a process remembers, oldest forgotten first. */
const REMEMBERED_REFUSALS = 1000;

/**
 * The reasons recent traced writes were refused, by trace id, then urn and aspect. Nothing of a refused write is
 * stored, so this process's memory is the only place its reason is known: another process, or this one after a
 * restart, answers UNKNOWN for it.
 */
export class RecentRefusals {
  private readonly byTrace = new Map<string, Map<string, string>>();

  record(traceId: string, writes: readonly Pick<Proposal, 'urn' | 'aspectName'>[], reason: string): void {
    const aspects = new Map(writes.map((w) => [`${w.urn}\u0000${w.aspectName}`, reason]));
    this.byTrace.set(traceId.toLowerCase(), aspects);
    if (this.byTrace.size > REMEMBERED_REFUSALS) this.byTrace.delete(this.byTrace.keys().next().value!);
  }

  reason(traceId: string, urn: string, aspect: string): string | undefined {
    return this.byTrace.get(traceId.toLowerCase())?.get(`${urn}\u0000${aspect}`);
  }
}

const refusals = new WeakMap<AppContext, RecentRefusals>();

/** The server's record of refused traced writes (one per app, shared by the write and trace routes). */
export function recentRefusals(ctx: AppContext): RecentRefusals {
  let r = refusals.get(ctx);
  if (!r) refusals.set(ctx, (r = new RecentRefusals()));
  return r;
}

/**
 * Runs a write as DataHub traces one: a new trace id goes into every proposal's system metadata (kept with the version
 * it writes) and back to the client as the `traceparent` header, on a refusal too, whose reason is remembered.
 */
export async function tracedWrite<T>(
  ctx: AppContext,
  reply: FastifyReply,
  proposals: readonly Proposal[],
  write: (traced: Proposal[]) => Promise<T>,
): Promise<T> {
  const traceId = newTraceId(Date.now());
  reply.header('traceparent', traceparentOf(traceId));
  try {
    return await write(withTraceId(proposals, traceId));
  } catch (e) {
    if (e instanceof CatalogError) recentRefusals(ctx).record(traceId, proposals, e.message);
    throw e;
  }
}

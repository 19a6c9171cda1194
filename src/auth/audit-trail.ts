import { badRequest } from '../catalog/errors.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { AuditQuery, Parts, StoredAuditEvent } from '../storage/store.ts';
import { recordAudit } from './audit-events.ts';
import type { Authorizer } from './authorizer.ts';
import type { Principal } from './principal.ts';

/** DataHub counts matches up to this many (its search's tracked total). */
export const AUDIT_TOTAL_LIMIT = 10_000;
export const MAX_AUDIT_PAGE = 1000;
const DAY_MILLIS = 86_400_000;
const FILTERS = ['eventTypes', 'entityTypes', 'aspectTypes', 'actorUrns'] as const;
const MAX_FILTER_VALUES = 100;

/** DataHub's ExternalAuditEventsSearchRequest: the body's filters and the query string's paging. */
export interface AuditSearchRequest {
  readonly body: unknown;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly size?: number;
  readonly scrollId?: string;
  readonly includeRaw: boolean;
}

/** DataHub's ExternalAuditEventsSearchResponse. */
export interface AuditSearchResponse {
  readonly nextScrollId?: string;
  readonly count: number;
  readonly total: number;
  readonly usageEvents: Array<Record<string, unknown>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function filters(body: unknown): Pick<AuditQuery, (typeof FILTERS)[number]> {
  if (body !== undefined && body !== null && !isObject(body)) throw badRequest('Request body must be a JSON object');
  const b = (body ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(FILTERS as readonly string[]).includes(k));
  if (unknown) throw badRequest(`Unknown field '${unknown}'; the body takes ${FILTERS.join(', ')}`);
  const out: Record<string, string[]> = {};
  for (const f of FILTERS) {
    const v = b[f] ?? [];
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw badRequest(`Field '${f}' must be a list of strings`);
    if (v.length > MAX_FILTER_VALUES) throw badRequest(`Field '${f}' may list at most ${MAX_FILTER_VALUES} values`);
    out[f] = v as string[];
  }
  return out as unknown as Pick<AuditQuery, (typeof FILTERS)[number]>;
}

/** The scroll id is the last event's place in the order (timestamp, then sequence), opaque to clients. */
const encodeScroll = (e: StoredAuditEvent): string => Buffer.from(JSON.stringify([e.timestamp, e.id])).toString('base64url');
function decodeScroll(scrollId: string): { timestamp: number; id: number } {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(timestamp) && Number.isSafeInteger(id)) return { timestamp: timestamp as number, id: id as number };
  } catch {
    // answered below
  }
  throw badRequest(`Query parameter 'scrollId' is not a scroll id this server gave`);
}

/** One event in DataHub's UsageEventResult shape; `rawUsageEvent` is the stored document, as DataHub's index holds it. */
function usageEvent(e: StoredAuditEvent, includeRaw: boolean): Record<string, unknown> {
  const fields = {
    eventType: e.eventType,
    timestamp: e.timestamp,
    actorUrn: e.actorUrn,
    ...e.details,
    ...(e.entityUrn !== undefined ? { entityUrn: e.entityUrn } : {}),
    ...(e.entityType !== undefined ? { entityType: e.entityType } : {}),
    ...(e.aspectName !== undefined ? { aspectName: e.aspectName } : {}),
  };
  if (!includeRaw) return fields;
  const { eventType, ...rest } = fields;
  return { ...fields, rawUsageEvent: { type: eventType, ...rest, usageSource: 'backend' } };
}

/** DataHub's audit search (`POST /openapi/v1/events/audit/search`), behind its ANALYTICS READ privilege, and group changes made by ingestion. */
export class AuditTrail {
  constructor(
    private readonly ports: Pick<Parts, 'audit'>,
    private readonly authorizer: Authorizer,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Groups change through ingestion of corpGroup aspects (members, roles, info), which no service of their own makes:
   * each is recorded as an UpdateAspectEvent once the write is authorized, before the batch is validated and written.
   */
  async recordGroupWrites(actorUrn: string, writes: ReadonlyArray<{ readonly urn: string; readonly aspectName: string }>): Promise<void> {
    const now = this.clock();
    for (const w of writes) {
      if (parseUrn(w.urn).entityType !== 'corpGroup') continue;
      await recordAudit(this.ports.audit, 'UpdateAspectEvent', actorUrn, { entityUrn: w.urn, aspectName: w.aspectName }, now);
    }
  }

  async search(principal: Principal, request: AuditSearchRequest): Promise<AuditSearchResponse> {
    await this.authorizer.require(principal, 'searchAuditEvents');
    const size = request.size ?? 10;
    if (!Number.isInteger(size) || size < 0 || size > MAX_AUDIT_PAGE)
      throw badRequest(`Query parameter 'size' must be an integer from 0 to ${MAX_AUDIT_PAGE}`);
    const now = this.clock();
    // As DataHub: a negative start is one day ago, an end of 0 or less is now.
    const startTime = request.startTime === undefined || request.startTime < 0 ? now - DAY_MILLIS : request.startTime;
    const endTime = request.endTime === undefined || request.endTime <= 0 ? now : request.endTime;
    const query: AuditQuery = {
      startTime,
      endTime,
      ...filters(request.body),
      ...(request.scrollId ? { after: decodeScroll(request.scrollId) } : {}),
      limit: size,
    };
    const { events, total } = await this.ports.audit.searchAuditEvents(query, AUDIT_TOTAL_LIMIT);
    const last = events[events.length - 1];
    return {
      ...(last !== undefined && events.length === size ? { nextScrollId: encodeScroll(last) } : {}),
      count: events.length,
      total,
      usageEvents: events.map((e) => usageEvent(e, request.includeRaw)),
    };
  }
}

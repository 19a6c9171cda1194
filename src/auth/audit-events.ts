import { AsyncLocalStorage } from 'node:async_hooks';
import { parseUrn } from '../catalog/urn.ts';
import type { AuditWrites } from '../storage/store.ts';

/** DataHub's backend usage event types that Almanac records. */
export type AuditEventType =
  | 'LogInEvent'
  | 'FailedLogInEvent'
  | 'CreateAccessTokenEvent'
  | 'RevokeAccessTokenEvent'
  | 'CreateUserEvent'
  | 'UpdateUserEvent'
  | 'DeleteEntityEvent'
  | 'CreatePolicyEvent'
  | 'UpdatePolicyEvent'
  | 'DeletePolicyEvent'
  | 'UpdateAspectEvent';

/** Where the request that made a change came from, as DataHub's events say it. */
export interface AuditOrigin {
  readonly sourceIP?: string;
  readonly userAgent?: string;
  /** DataHub's EventSource: RESTLI, OPENAPI or GRAPHQL. */
  readonly eventSource?: string;
}

/**
 * The request's origin, set once per request by the server (api/server.ts) so that a service recording an event
 * need not carry the HTTP request through every signature; outside a request (the CLI) there is none.
 */
const origin = new AsyncLocalStorage<AuditOrigin>();
export const runWithAuditOrigin = (o: AuditOrigin, fn: () => void): void => origin.run(o, fn);

export interface AuditSubject {
  readonly entityUrn?: string;
  readonly aspectName?: string;
  /** LogInEvent and FailedLogInEvent: PASSWORD_LOGIN, SIGN_UP_LINK_LOGIN, ... */
  readonly loginSource?: string;
}

/** Records one event with the current request's origin; the entity type comes from the urn. */
export async function recordAudit(
  audit: AuditWrites,
  eventType: AuditEventType,
  actorUrn: string,
  subject: AuditSubject = {},
  now: number = Date.now(),
): Promise<void> {
  const from = origin.getStore() ?? {};
  const details: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...from, loginSource: subject.loginSource })) if (typeof v === 'string' && v !== '') details[k] = v;
  await audit.recordAuditEvent({
    eventType,
    timestamp: now,
    actorUrn,
    ...(subject.entityUrn ? { entityUrn: subject.entityUrn, entityType: parseUrn(subject.entityUrn).entityType } : {}),
    ...(subject.aspectName ? { aspectName: subject.aspectName } : {}),
    details,
  });
}

/**
 * Audit events: who signed in (or failed to), created or revoked a token, changed a user, role, group or policy,
 * recorded by the service that made the change and served by DataHub's audit search. Kept for
 * ALMANAC_AUDIT_RETENTION_DAYS, then pruned by housekeeping.
 */
export interface AuditEvent {
  /** DataHub's usage event type: LogInEvent, FailedLogInEvent, CreateAccessTokenEvent, UpdatePolicyEvent, ... */
  readonly eventType: string;
  readonly timestamp: number;
  readonly actorUrn: string;
  readonly entityUrn?: string;
  readonly entityType?: string;
  readonly aspectName?: string;
  /** Everything else DataHub's event carries (sourceIP, eventSource, userAgent, loginSource, ...). */
  readonly details?: Readonly<Record<string, string>>;
}

/** A stored event with its sequence number, which orders events recorded in the same millisecond. */
export interface StoredAuditEvent extends AuditEvent {
  readonly id: number;
}

export interface AuditQuery {
  /** Inclusive start and exclusive end, epoch milliseconds. */
  readonly startTime: number;
  readonly endTime: number;
  /** Each list, when non-empty, keeps the events whose field is one of its values. */
  readonly eventTypes: readonly string[];
  readonly entityTypes: readonly string[];
  readonly aspectTypes: readonly string[];
  readonly actorUrns: readonly string[];
  /** Newest first; a page continues after the last event of the one before. */
  readonly after?: { readonly timestamp: number; readonly id: number };
  readonly limit: number;
}

/** What AuditPort only reads. */
export interface AuditReads {
  /** The matching events, newest first, and how many match in all (counted up to `countLimit`). */
  searchAuditEvents(query: AuditQuery, countLimit: number): Promise<{ events: StoredAuditEvent[]; total: number }>;
}

/** What AuditPort changes. */
export interface AuditWrites {
  recordAuditEvent(event: AuditEvent): Promise<void>;
  /** Forgets events older than `before`; returns how many. */
  pruneAuditEvents(before: number): Promise<number>;
}

export interface AuditPort extends AuditReads, AuditWrites {}

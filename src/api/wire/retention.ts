/**
 * The JSON the server sends about retention, declared once: `/api/retention` builds these, and the CLI and the
 * console read them. Types only.
 */

/** A policy as DataHub writes one, with who set it last and how. */
export interface RetentionPolicyWire {
  readonly entity: string;
  readonly aspect: string;
  readonly config: {
    readonly retention: {
      readonly version?: { readonly maxVersions: number };
      readonly time?: { readonly maxAgeInSeconds: number };
    };
  };
  /** `file`: ALMANAC_RETENTION_FILE set it; `api`: the API, the CLI or the console. */
  readonly source: 'api' | 'file';
  readonly updatedBy: string;
  readonly updatedAt: number;
}

/** What one policy would delete now from one timeseries index or one (entity type, aspect) pair of versioned aspects. */
export interface RetentionPreviewWire {
  readonly policy: { readonly entity: string; readonly aspect: string };
  readonly kind: 'timeseries' | 'versioned';
  readonly entityType: string;
  readonly aspect: string;
  /** Rows (timeseries) or earlier versions (versioned) that would go. */
  readonly delete: number;
  /** Rows in the index, or earlier versions stored. */
  readonly total: number;
  readonly sharePercent: number;
  readonly bytes: number;
  /** Timeseries bytes are the index's size in proportion to the rows; versioned bytes are the values' own. */
  readonly bytesEstimated: boolean;
  /** Timeseries: rows older than this go. */
  readonly cutoffMillis: number | null;
  /** The oldest and newest row, or earlier version, that stays. */
  readonly oldestKeptMillis: number | null;
  readonly newestKeptMillis: number | null;
  /** More than ALMANAC_RETENTION_MAX_DELETE_PERCENT would go: a scheduled run skips it until a run is confirmed. */
  readonly needsConfirmation: boolean;
}

export interface RetentionOutcomeWire {
  readonly kind: 'timeseries' | 'versioned';
  readonly entityType: string;
  readonly aspect: string;
  readonly policy: { readonly entity: string; readonly aspect: string };
  readonly outcome: 'started' | 'skipped' | 'busy' | 'applied';
  readonly reason?: string;
  readonly taskId?: string;
  readonly cutoffMillis?: number;
  readonly rowsToDelete?: number;
  readonly totalRows?: number;
  readonly versionsDeleted?: number;
}

/** A retention run: what started it, and what it did with each index and pair. */
export interface RetentionRunWire {
  readonly id: string;
  readonly trigger: 'schedule' | 'manual' | 'policy';
  readonly policy: { readonly entity: string; readonly aspect: string } | null;
  readonly state: 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled';
  readonly confirm: boolean;
  readonly createdBy: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly error: string | null;
  readonly versionsDeleted: number;
  readonly outcomes: readonly RetentionOutcomeWire[];
}

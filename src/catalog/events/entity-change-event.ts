import { deprecationChanges } from '../timeline/deprecation-changes.ts';

/** A change webhooks are told of: a deprecation's value before and after, or a task's final state. */
export interface ChangeRecord {
  readonly entityType: string;
  readonly entityUrn: string;
  readonly category: 'DEPRECATION' | 'RUN';
  readonly source: 'deprecation' | 'task';
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown>;
  readonly actor: string;
  readonly createdAt: number;
}

/**
 * DataHub's Entity Change Event (`EntityChangeEvent_v1`, com.linkedin.platform.event.v1.EntityChangeEvent), as
 * DataHub Actions consumers parse it: absent optional fields are left out, `version` is 0 as DataHub sets it.
 */
export interface EntityChangeEventV1 {
  readonly entityType: string;
  readonly entityUrn: string;
  readonly category: string;
  readonly operation: string;
  readonly modifier?: string;
  readonly parameters?: Record<string, string | number | boolean>;
  readonly auditStamp: { readonly time: number; readonly actor: string };
  readonly version: 0;
}

type Primitive = string | number | boolean;
const isPrimitive = (v: unknown): v is Primitive => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const primitivesOf = (v: unknown): Record<string, Primitive> =>
  typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter((e): e is [string, Primitive] => isPrimitive(e[1]))) : {};

/**
 * A deprecation change: DataHub's parameters (status DEPRECATED with `timestamp` and `note`, or ACTIVE) when the flag
 * flips, as its DeprecationChangeEventGenerator emits them. DataHub emits nothing when only the note, the
 * decommission time or the replacement changes; Almanac emits the same event with the new values, since a consumer
 * told of a deprecation should hear that its date moved. `replacement` is Almanac's addition.
 */
function deprecationParameters(e: ChangeRecord): Record<string, Primitive> {
  const [flipped] = deprecationChanges(e.before ?? undefined, e.after, e.entityUrn);
  const params = { ...primitivesOf(flipped?.parameters) };
  if (!flipped) {
    params.status = e.after.deprecated === true ? 'DEPRECATED' : 'ACTIVE';
    if (params.status === 'DEPRECATED') {
      if (typeof e.after.decommissionTime === 'number') params.timestamp = String(e.after.decommissionTime);
      if (typeof e.after.note === 'string' && e.after.note !== '') params.note = e.after.note;
    }
  }
  if (params.status === 'DEPRECATED' && typeof e.after.replacement === 'string') params.replacement = e.after.replacement;
  return params;
}

/**
 * A truncation or retention task's end, as DataHub reports a process run's end: category RUN, operation COMPLETED,
 * `runResult` SUCCESS or FAILURE (SKIPPED when cancelled), with what the task was asked and what it did.
 */
function taskParameters(e: ChangeRecord): Record<string, Primitive> {
  const state = String(e.after.state);
  const runResult = state === 'completed' ? 'SUCCESS' : state === 'cancelled' ? 'SKIPPED' : 'FAILURE';
  return {
    ...primitivesOf(e.after.params),
    ...primitivesOf(e.after.progress),
    runResult,
    taskKind: e.after.kind === 'truncateTimeseriesAspect' ? 'truncation' : String(e.after.kind),
    taskNumber: String(e.after.number),
    state,
    ...(typeof e.after.error === 'string' ? { error: e.after.error } : {}),
  };
}

export function toEntityChangeEvent(e: ChangeRecord): EntityChangeEventV1 {
  const task = e.source === 'task';
  return {
    entityType: e.entityType,
    entityUrn: e.entityUrn,
    category: e.category,
    operation: task ? 'COMPLETED' : 'MODIFY',
    parameters: task ? taskParameters(e) : deprecationParameters(e),
    auditStamp: { time: e.createdAt, actor: e.actor },
    version: 0,
  };
}

import { hardDelete, type DeleteRequest, type DeleteResult } from './deletion.ts';
import { applyPatch, parsePatch } from './patch/apply-patch.ts';
import { CatalogError, badRequest } from './errors.ts';
import type { EntitySearch } from './search/entity-search.ts';
import { AspectEdits } from './curation/aspect-edits.ts';
import { dropAssignments, hideSoftDeletedProperties } from './structured-property-assignments.ts';
import { deleteReferences, type DeleteReferencesResult } from './references.ts';
import type { Proposal } from './proposals.ts';
import { aspectSpec, entitySpec, keyAspectValue, validateAspect } from './registry/index.ts';
import { ROOT_USER_INFO } from './root-user.ts';
import { timeseriesDocId } from './timeseries-doc-id.ts';
import { writeHookOf } from './write-hooks.ts';
import { preconditionOf } from './preconditions.ts';
import { compileTimeseriesFilter } from './timeseries-filter.ts';
import { parseUrn, validateUrnForIngest } from './urn.ts';
import type { AspectLatest, AspectWriteOutcome, Json, StoredAspect, Parts, TimeseriesEvent, WriteOp } from '../storage/store.ts';
import { processRuns, type ProcessRuns } from './search/process-runs.ts';
import { checkStructuredProperties, propertyUrnsIn } from './structured-property-values.ts';

/** The run id clients send when a proposal belongs to no ingestion run. */
export const DEFAULT_RUN_ID = 'no-run-id-provided';
/** The aspect whose reads leave out soft-deleted structured properties' values. */
const STRUCTURED_PROPERTIES = 'structuredProperties';

export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/** An entity's urn, canonical type name and latest aspects. */
export interface EntityView {
  readonly urn: string;
  readonly entityType: string;
  readonly aspects: readonly StoredAspect[];
}
export const DEFAULT_TIMESERIES_LIMIT = 10000;

export interface TimeseriesValuesQuery {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly limit?: number;
  /** DataHub's Filter on the events' fields; refused with 400 when it cannot be applied. */
  readonly filter?: unknown;
}

/** Events may be dated from the epoch to a day ahead (clock skew); later ones are usually microseconds sent as milliseconds. */
const DAY_MILLIS = 86_400_000;
const FUTURE_SLACK_MILLIS = DAY_MILLIS;
/** Each UTC day of an index is a table: one request may touch this many days at most, so no client can mint tables by the thousand. */
export const MAX_DAYS_PER_REQUEST = 1000;

function checkEventTime(t: number, now: number): void {
  if (t < 0 || t > now + FUTURE_SLACK_MILLIS) {
    throw badRequest(`Field 'timestampMillis' ${t} is outside ${new Date(0).toISOString()} to a day from now: epoch milliseconds are expected`);
  }
}

function checkDaysTouched(ops: readonly WriteOp[]): void {
  const days = new Set<string>();
  for (const op of ops)
    if (op.kind === 'timeseries') days.add(`${op.entityType}\u0000${op.aspect}\u0000${Math.floor(op.timestampMillis / DAY_MILLIS)}`);
  if (days.size > MAX_DAYS_PER_REQUEST) {
    throw badRequest(
      `A request may write timeseries events on at most ${MAX_DAYS_PER_REQUEST} distinct days per index; this one touches ${days.size}. Split it.`,
    );
  }
}

/** Prefixes a batch item's error with where it is, keeping its code. */
function at(path: string | undefined, e: unknown): unknown {
  if (path === undefined || !(e instanceof CatalogError)) return e;
  return new CatalogError(e.code, `${path}: ${e.message}`, e.details ? { ...e.details } : undefined);
}

/**
 * The catalog's use cases over the storage port: ingestion, reads and deletes.
 * REST, OpenAPI and GraphQL all call these, so validation is written once.
 */
export class Catalog {
  constructor(
    private readonly ports: Pick<Parts, 'aspects' | 'timeseries'>,
    private readonly search: EntitySearch,
    /** Which adapter holds the catalog (`/config` reports it). */
    readonly backend: 'sqlite' | 'postgres',
    private readonly clock: () => number = Date.now,
  ) {}

  /** Latest versions of the named aspects of many entities in one round trip; only urns that exist have an entry. */
  async getEntities(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    const found = await this.ports.aspects.getEntities(urns, aspects);
    if (!aspects.includes(STRUCTURED_PROPERTIES)) return found;
    const shown = await hideSoftDeletedProperties(this.ports.aspects, [...found.values()].flat());
    const out = new Map<string, StoredAspect[]>([...found.keys()].map((urn) => [urn, []]));
    for (const a of shown) out.get(a.urn)?.push(a);
    return out;
  }

  /** DataHub's `runs` of a data job or flow (see search/process-runs.ts). */
  processRuns(templateUrn: string, start: number, count: number): Promise<ProcessRuns> {
    return processRuns(this.search, this.ports, templateUrn, start, count);
  }

  /**
   * Validates every proposal first, then writes them all in one transaction:
   * a bad item leaves nothing stored. `itemPath` names items in error messages.
   */
  async ingest(proposals: readonly Proposal[], actor: string, itemPath?: (i: number) => string): Promise<AspectWriteOutcome[]> {
    const now = this.clock();
    const ops: WriteOp[] = [];
    // One key aspect per entity is enough: a batch of a thousand events of one dataset builds and writes it once.
    const keyed = new Set<string>();
    proposals.forEach((p, i) => {
      try {
        ops.push(...this.toWriteOps(p, now, keyed, itemPath?.(i)));
      } catch (e) {
        throw at(itemPath?.(i), e);
      }
    });
    checkDaysTouched(ops);
    const patched = new Set<string>();
    for (const p of proposals) if (p.changeType === 'PATCH' && p.aspectName === 'structuredProperties') propertyUrnsIn(p.value, patched);
    const checked = await checkStructuredProperties(this.ports.aspects, ops, patched);
    return this.ports.aspects.write({ ops: checked, actor, now });
  }

  private toWriteOps(p: Proposal, now: number, keyed: Set<string>, path?: string): WriteOp[] {
    const spec = entitySpec(p.entityType);
    const urn = validateUrnForIngest(p.urn);
    if (urn.entityType.toLowerCase() !== spec.name.toLowerCase()) {
      throw badRequest(`Urn ${p.urn} is not a ${spec.name} urn (entityType is ${p.entityType})`);
    }
    const systemMetadata: Json = { runId: DEFAULT_RUN_ID, lastObserved: now, ...(p.systemMetadata ?? {}) };
    const aspect = aspectSpec(spec.name, p.aspectName);
    if (p.changeType === 'PATCH' && aspect.kind !== 'versioned') {
      throw badRequest(`PATCH is not supported for ${aspect.kind} aspect ${aspect.name}; send it whole with UPSERT`);
    }
    // Every write makes the entity exist through its key aspect, a timeseries event too (as DataHub writes it).
    const keyOps: WriteOp[] = [];
    if (!keyed.has(p.urn)) {
      keyed.add(p.urn);
      const key = validateAspect(spec.name, spec.keyAspect, keyAspectValue(spec.name, urn.parts));
      keyOps.push({ kind: 'aspect', entityType: spec.name, urn: p.urn, aspect: spec.keyAspect, value: key, systemMetadata, onlyIfAbsent: true });
    }
    if (aspect.kind === 'timeseries') {
      const value = validateAspect(spec.name, aspect.name, p.value);
      checkEventTime(value.timestampMillis as number, now);
      const event: TimeseriesEvent = {
        urn: p.urn,
        timestampMillis: value.timestampMillis as number,
        docId: timeseriesDocId(p.urn, value),
        event: value,
        systemMetadata,
      };
      return [...keyOps, { kind: 'timeseries', entityType: spec.name, aspect: aspect.name, ...event }];
    }
    if (aspect.kind === 'key') return keyOps;
    const op = { kind: 'aspect', entityType: spec.name, urn: p.urn, aspect: aspect.name, systemMetadata } as const;
    // An aspect with a DataHub mutation hook (domains) is reconciled with the stored value inside the write.
    const hook = writeHookOf(aspect.name);
    const sync = hook && ((value: Json, current: Json | undefined) => hook(value, current, p.urn));
    // A conditional write (If-Version-Match, ...) is checked on the locked latest version inside the write.
    const precondition = preconditionOf(p);
    const inWrite = (compute: (current: Json | undefined) => Json) => (current: Json | undefined, latest: AspectLatest | undefined) => {
      try {
        precondition?.(latest);
        return compute(current);
      } catch (e) {
        throw at(path, e);
      }
    };
    if (p.changeType !== 'PATCH') {
      const value = validateAspect(spec.name, aspect.name, p.value);
      if (!sync && !precondition) return [...keyOps, { ...op, value }];
      return [
        ...keyOps,
        { ...op, value, update: inWrite((current) => (sync ? validateAspect(spec.name, aspect.name, sync(value, current)) : value)) },
      ];
    }
    // Checked now; applied to the latest version inside the write, which an invalid result aborts.
    const patch = parsePatch(aspect.name, p.value, 'aspect.value');
    const update = inWrite((current) => {
      const patched = validateAspect(spec.name, aspect.name, applyPatch(aspect.name, current, patch, now));
      return sync ? validateAspect(spec.name, aspect.name, sync(patched, current)) : patched;
    });
    return [...keyOps, { ...op, value: {}, update }];
  }

  async exists(urn: string): Promise<boolean> {
    parseUrn(urn);
    return (await this.ports.aspects.existing([urn])).has(urn);
  }

  /**
   * The entity as DataHub's entitiesV2 answers it: its latest aspects (these
   * only, when named), always with its key aspect, built from the urn when the
   * entity was never written, as DataHub does. Unknown aspect names are left out.
   */
  async entityView(urn: string, aspects?: readonly string[]): Promise<EntityView> {
    const parsed = parseUrn(urn);
    const spec = entitySpec(parsed.entityType);
    const wanted = aspects && [...new Set([spec.keyAspect, ...aspects])];
    const stored = await this.latestAspects(urn, wanted);
    if (stored.some((a) => a.aspect === spec.keyAspect)) return { urn, entityType: spec.name, aspects: stored };
    const key: StoredAspect = {
      urn,
      entityType: spec.name,
      aspect: spec.keyAspect,
      version: 0,
      value: keyAspectValue(spec.name, parsed.parts),
      systemMetadata: null,
      createdOn: this.clock(),
      createdBy: SYSTEM_ACTOR,
    };
    return { urn, entityType: spec.name, aspects: [key, ...stored] };
  }

  /** The entity's latest aspects, or undefined when it does not exist. */
  async getEntity(urn: string, aspects?: readonly string[]): Promise<StoredAspect[] | undefined> {
    parseUrn(urn);
    if (!(await this.exists(urn))) return undefined;
    return this.latestAspects(urn, aspects);
  }

  /** The entity's latest aspects as reads show them (without soft-deleted structured properties' values). */
  private async latestAspects(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    return hideSoftDeletedProperties(this.ports.aspects, await this.ports.aspects.getLatestAspects(urn, aspects));
  }

  async getAspect(urn: string, aspect: string, version = 0): Promise<StoredAspect | undefined> {
    const parsed = parseUrn(urn);
    aspectSpec(parsed.entityType, aspect);
    const found = await this.ports.aspects.getAspect(urn, aspect, version);
    return found && aspect === STRUCTURED_PROPERTIES ? (await hideSoftDeletedProperties(this.ports.aspects, [found]))[0] : found;
  }

  /** The newest `limit` versions of one aspect, newest first (version 0, then n, n-1, ...), with their system metadata. */
  aspectHistory(urn: string, aspect: string, limit: number): Promise<StoredAspect[]> {
    const parsed = parseUrn(urn);
    aspectSpec(parsed.entityType, aspect);
    return this.ports.aspects.getAspectHistory(urn, aspect, limit);
  }

  /** Hard deletes the entity, or one aspect of it (a timeseries aspect optionally inside a time window). */
  async delete(request: DeleteRequest): Promise<DeleteResult> {
    const result = await hardDelete(this.ports, request);
    if (request.aspectName === undefined && parseUrn(request.urn).entityType === 'structuredProperty') {
      await dropAssignments(this.search, new AspectEdits(this.ports, this.clock), parseUrn(request.urn).raw, SYSTEM_ACTOR);
    }
    return result;
  }

  /**
   * DataHub's deleteReferences: removes every reference to the urn from the aspects of other entities (see
   * references.ts); a dry run only counts them. The writes are the system actor's, as in DataHub.
   */
  deleteReferences(urn: string, dryRun: boolean): Promise<DeleteReferencesResult> {
    return deleteReferences(this.ports, urn, dryRun, async (proposals) => {
      await this.ingest(proposals, SYSTEM_ACTOR);
    });
  }

  /** DataHub's listUrns: the urns of one entity type (soft-deleted ones too), a page by offset, with the total. */
  async listUrns(entityType: string, start: number, count: number): Promise<{ urns: string[]; total: number }> {
    const page = await this.search.page(
      { entityTypes: [entitySpec(entityType).name], filter: [], includeSoftDeleted: true, sort: [] },
      start,
      count,
      {
        total: true,
      },
    );
    return { urns: page.hits.map((h) => h.urn), total: await page.total() };
  }

  async timeseriesValues(q: TimeseriesValuesQuery): Promise<TimeseriesEvent[]> {
    parseUrn(q.urn);
    const spec = entitySpec(q.entityType);
    const aspect = aspectSpec(spec.name, q.aspect);
    if (aspect.kind !== 'timeseries') throw badRequest(`Aspect ${q.aspect} of ${spec.name} is not a timeseries aspect`);
    return this.ports.timeseries.queryTimeseries({
      entityType: spec.name,
      aspect: aspect.name,
      urn: q.urn,
      startTimeMillis: q.startTimeMillis,
      endTimeMillis: q.endTimeMillis,
      limit: q.limit ?? DEFAULT_TIMESERIES_LIMIT,
      match: compileTimeseriesFilter(q.filter),
    });
  }

  /** Creates a user entity if it is missing (bootstrap and token minting). */
  /**
   * Gives DataHub's root user the corpUserInfo DataHub's bootstrap writes (ROOT_USER_INFO), once: only when it has
   * none, or still has the one earlier Almanac versions wrote, so an operator's edit is never overwritten.
   */
  async ensureRootUser(rootUrn: string): Promise<void> {
    const urn = parseUrn(rootUrn);
    const now = this.clock();
    const isEarlierDefault = (v: Json) => {
      const o = v as Record<string, unknown>;
      return Object.keys(o).length === 2 && o.active === true && o.displayName === urn.key;
    };
    await this.ports.aspects.write({
      ops: [
        {
          kind: 'aspect',
          entityType: 'corpuser',
          urn: rootUrn,
          aspect: 'corpUserKey',
          value: { username: urn.key },
          systemMetadata: { runId: DEFAULT_RUN_ID, lastObserved: now },
          onlyIfAbsent: true,
        },
        {
          kind: 'aspect',
          entityType: 'corpuser',
          urn: rootUrn,
          aspect: 'corpUserInfo',
          value: ROOT_USER_INFO,
          update: (current) => (current === undefined || isEarlierDefault(current) ? ROOT_USER_INFO : current),
          systemMetadata: { runId: DEFAULT_RUN_ID, lastObserved: now },
        },
      ],
      actor: rootUrn,
      now,
    });
  }

  async ensureUser(userUrn: string, actor: string): Promise<void> {
    const urn = parseUrn(userUrn);
    if (urn.entityType !== 'corpuser') throw badRequest(`${userUrn} is not a corpuser urn`);
    const now = this.clock();
    const systemMetadata = { runId: DEFAULT_RUN_ID, lastObserved: now };
    await this.ports.aspects.write({
      ops: [
        {
          kind: 'aspect',
          entityType: 'corpuser',
          urn: userUrn,
          aspect: 'corpUserKey',
          value: { username: urn.key },
          systemMetadata,
          onlyIfAbsent: true,
        },
        {
          kind: 'aspect',
          entityType: 'corpuser',
          urn: userUrn,
          aspect: 'corpUserInfo',
          value: { active: true, displayName: urn.key },
          systemMetadata,
          onlyIfAbsent: true,
        },
      ],
      actor,
      now,
    });
  }
}

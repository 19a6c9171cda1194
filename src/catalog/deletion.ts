import { badRequest } from './errors.ts';
import { entitySpec, findAspectSpec } from './registry/index.ts';
import { parseUrn } from './urn.ts';
import type { Parts, TimeseriesRowScope } from '../storage/store.ts';

/** A hard delete as DataHub's `entities?action=delete` takes it. */
export interface DeleteRequest {
  readonly urn: string;
  /** Only this aspect of the entity: a timeseries aspect (optionally in a window) or a versioned one. */
  readonly aspectName?: string;
  /** Inclusive bounds on timestampMillis, for a timeseries aspect only. */
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
}

/** DataHub's DeleteEntityResponse: versioned rows (aspect versions) and timeseries rows removed. */
export interface DeleteResult {
  readonly urn: string;
  readonly rows: number;
  readonly timeseriesRows: number;
}

/** Users and groups: deleting one also revokes its tokens, role and password, so re-creating it revives none of them. */
const IDENTITY_TYPES = new Set(['corpuser', 'corpGroup']);
export const isIdentityUrn = (urn: string): boolean => IDENTITY_TYPES.has(parseUrn(urn).entityType);

/**
 * Hard deletes exactly what was asked, refusing before anything is touched when
 * the request names something the entity does not have:
 * - the urn alone: the entity, every version of every aspect, every timeseries row;
 * - with a timeseries aspect: that aspect's rows of that urn, inside the window;
 * - with a versioned aspect: every version of that aspect (DataHub refuses this; see README).
 */
export async function hardDelete({ aspects, timeseries }: Pick<Parts, 'aspects' | 'timeseries'>, req: DeleteRequest): Promise<DeleteResult> {
  const urn = parseUrn(req.urn);
  const entity = entitySpec(urn.entityType);
  const window = req.startTimeMillis !== undefined || req.endTimeMillis !== undefined;
  if (req.startTimeMillis !== undefined && req.endTimeMillis !== undefined && req.startTimeMillis > req.endTimeMillis) {
    throw badRequest(`Parameter 'startTimeMillis' (${req.startTimeMillis}) must not be after 'endTimeMillis' (${req.endTimeMillis})`);
  }
  if (req.aspectName === undefined) {
    if (window) {
      throw badRequest(
        "Parameters 'startTimeMillis' and 'endTimeMillis' need 'aspectName' (a timeseries aspect); without it the whole entity is deleted",
      );
    }
    const removed = await aspects.deleteEntity(req.urn, { revokeIdentity: IDENTITY_TYPES.has(entity.name) });
    return { urn: req.urn, rows: removed.aspectRows, timeseriesRows: removed.timeseriesRows };
  }
  const aspect = findAspectSpec(entity.name, req.aspectName);
  if (!aspect) throw badRequest(`Parameter 'aspectName': ${entity.name} has no aspect ${req.aspectName}`);
  if (aspect.kind === 'key') {
    throw badRequest(`Parameter 'aspectName': ${aspect.name} is the key aspect of ${entity.name}; omit 'aspectName' to delete the entity`);
  }
  if (aspect.kind === 'versioned') {
    if (window) {
      throw badRequest(`Parameters 'startTimeMillis' and 'endTimeMillis' apply to timeseries aspects only; ${aspect.name} is versioned`);
    }
    return { urn: req.urn, rows: await aspects.deleteAspect(req.urn, aspect.name), timeseriesRows: 0 };
  }
  const scope: TimeseriesRowScope = {
    index: { entityType: entity.name, aspect: aspect.name },
    startMillis: req.startTimeMillis,
    endMillis: req.endTimeMillis,
  };
  return { urn: req.urn, rows: 0, timeseriesRows: await timeseries.deleteTimeseriesRows(req.urn, scope) };
}

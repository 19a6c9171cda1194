import { badRequest } from '../../catalog/errors.ts';
import { DATAHUB_REGISTRY } from '../../catalog/registry/index.ts';
import { validateUrnForIngest } from '../../catalog/urn.ts';
import type { Principal } from '../../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { acceptOnly, intParam, MAX_INT, stringParam, type ActionBody } from './params.ts';

/** DataHub's defaults (EntityServiceImpl.batchApplyRetention). */
const DEFAULT_COUNT = 100;
const DEFAULT_ATTEMPT_WITH_VERSION = 21;
/** Almanac bounds one call: urns per (entity type, aspect). */
const MAX_COUNT = 10_000;

/**
 * DataHub's `applyRetention` action, on `entities` (DataHub's resource) and on `operations`: applies the retention
 * policies to versioned aspects now and answers with DataHub's BulkApplyRetentionResult text.
 */
export async function applyRetentionAction(ctx: AppContext, body: ActionBody, query: Readonly<Record<string, unknown>>, principal: Principal) {
  acceptOnly(body, query, 'applyRetention', ['start', 'count', 'attemptWithVersion', 'aspectName', 'urn']);
  const urn = stringParam(body, 'urn');
  if (urn !== undefined) validateUrnForIngest(urn);
  const aspectName = stringParam(body, 'aspectName');
  if (aspectName !== undefined && DATAHUB_REGISTRY.aspects[aspectName] === undefined) {
    throw badRequest(`Parameter 'aspectName': '${aspectName}' is not a known aspect`);
  }
  const args = {
    start: intParam(body, 'start', { min: 0, max: MAX_INT }) ?? 0,
    count: intParam(body, 'count', { min: 1, max: MAX_COUNT }) ?? DEFAULT_COUNT,
    attemptWithVersion: intParam(body, 'attemptWithVersion', { min: 0, max: MAX_INT }) ?? DEFAULT_ATTEMPT_WITH_VERSION,
    aspectName: aspectName ?? null,
    urn: urn ?? null,
  };
  await ctx.authorizer.require(principal, 'applyRetention');
  return { value: await ctx.retention.applyRetention(args) };
}

import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import { findAspectSpec } from '../registry/index.ts';
import { parseUrn } from '../urn.ts';
import { auditStampOf } from './aspect-edits.ts';

const ASPECT = 'logicalParent';

/**
 * The entities whose EDIT_ENTITY allows a logical-parent write on this side of the link (DataHub's
 * resolveLogicalParentAuthorizationCandidates): a schema field's dataset, then the field; any other entity itself.
 */
export function logicalParentGrantees(urn: string): string[] {
  const parsed = parseUrn(urn);
  return parsed.entityType === 'schemaField' ? [parseUrn(parsed.parts[0]!).raw, parsed.raw] : [parsed.raw];
}

/**
 * DataHub's setLogicalParent (SetLogicalParentResolver, LogicalModelUtils.createLogicalParent): the entity's
 * logicalParent aspect names the parent in an edge stamped by the caller, or names none when no parent is given.
 * Written through ingest, as DataHub's resolver does: the entity need not exist yet, and the parent is not looked up
 * (DataHub's note: "No validation on existence of parent urn").
 */
export async function setLogicalParent(catalog: Catalog, resourceUrn: string, parentUrn: string | null, actor: string, now: number): Promise<void> {
  const resource = parseUrn(resourceUrn);
  if (!findAspectSpec(resource.entityType, ASPECT)) {
    throw badRequest(`input.resourceUrn: a ${resource.entityType} has no logical parent (only datasets and schema fields do)`);
  }
  const stamp = auditStampOf(actor, now);
  const value = parentUrn == null ? {} : { parent: { destinationUrn: parseUrn(parentUrn).raw, created: stamp, lastModified: stamp } };
  await catalog.ingest(
    [
      {
        entityType: resource.entityType,
        urn: resource.raw,
        changeType: 'UPSERT',
        aspectName: ASPECT,
        value,
        systemMetadata: { properties: { appSource: 'ui' } },
      },
    ],
    actor,
  );
}

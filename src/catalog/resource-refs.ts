import { badRequest } from './errors.ts';
import { parseUrn, type Urn } from './urn.ts';
import type { AspectReads, Json, StoredAspect } from '../storage/store.ts';

export const SUB_RESOURCE_TYPES = ['DATASET_FIELD'] as const;
export type SubResourceType = (typeof SUB_RESOURCE_TYPES)[number];

/** DataHub's ResourceRefInput: an entity, or with a subResource one field of a dataset's schema. */
export interface ResourceRef {
  readonly resourceUrn: string;
  readonly subResourceType?: SubResourceType | null;
  readonly subResource?: string | null;
}

/** A batch mutation refuses more resources (or labels, or owners) than this, before touching the database. */
export const MAX_BATCH_RESOURCES = 1000;

export function checkBatchSize(mutation: string, what: string, n: number): void {
  if (n > MAX_BATCH_RESOURCES) throw badRequest(`${mutation} accepts at most ${MAX_BATCH_RESOURCES} ${what}, got ${n}`);
}

/** Whether the reference names a field (or says it does, half-way: the check then refuses it). */
export const wantsField = (r: ResourceRef): boolean => (r.subResource ?? '') !== '' || r.subResourceType != null;

/** A resource found to exist, with its field checked against the dataset's schema when one was named. */
export interface CheckedResource {
  readonly urn: Urn;
  readonly field?: string;
}

/** DataHub's LabelUtils.validateResource message for an entity that does not exist. */
export const resourceMissing = (urn: string): string => `Failed to update resource with urn ${urn}. Entity does not exist.`;

/**
 * What a batch of resource references needs from the database, read in two round trips however long the batch:
 * which urns exist (the resources and any others the caller names, such as labels or owners) and the schema of
 * every dataset a field is named on. `check` then applies DataHub's rules (LabelUtils.validateResource and
 * MutationUtils.validateSubresourceExists) with its messages, one reference at a time, in the caller's order.
 */
export class ResourceLookup {
  private constructor(
    private readonly found: ReadonlySet<string>,
    private readonly schemas: ReadonlyMap<string, StoredAspect[]>,
  ) {}

  /** Parses every urn first, so a malformed one is refused before anything is read. */
  static async read(aspects: Pick<AspectReads, 'existing' | 'getEntities'>, resources: readonly ResourceRef[], others: readonly string[] = []) {
    for (const r of resources) parseUrn(r.resourceUrn);
    const withFields = resources.filter(wantsField).map((r) => r.resourceUrn);
    const found = await aspects.existing([...new Set([...resources.map((r) => r.resourceUrn), ...others])]);
    const schemas =
      withFields.length > 0 ? await aspects.getEntities([...new Set(withFields)], ['schemaMetadata']) : new Map<string, StoredAspect[]>();
    return new ResourceLookup(found, schemas);
  }

  /** Whether the urn (a resource or one of the others read with them) exists; a soft-deleted entity does. */
  has(urn: string): boolean {
    return this.found.has(urn);
  }

  check(r: ResourceRef, missing: (urn: string) => string = resourceMissing): CheckedResource {
    const urn = parseUrn(r.resourceUrn);
    if (!this.found.has(urn.raw)) throw badRequest(missing(urn.raw));
    if (!wantsField(r)) return { urn };
    const sub = r.subResource ?? '';
    if (sub === '')
      throw badRequest(`Failed to update resource with urn ${urn.raw}. SubResourceType (${r.subResourceType}) provided without a subResource.`);
    // "updates" is DataHub's own typo; clients may match the text.
    if (r.subResourceType == null)
      throw badRequest(`Failed to updates resource with urn ${urn.raw}. SubResource (${sub}) provided without a subResourceType.`);
    this.checkField(urn.raw, sub);
    return { urn, field: sub };
  }

  /** The field must be in the dataset's schemaMetadata (DataHub's validateSubresourceExists). */
  checkField(urn: string, fieldPath: string): void {
    const schema = this.schemas.get(urn)?.find((a) => a.aspect === 'schemaMetadata')?.value;
    if (!schema) throw badRequest(`Failed to update ${urn} & field ${fieldPath}. ${urn} has no schema.`);
    const fields = Array.isArray(schema.fields) ? (schema.fields as Json[]) : [];
    if (!fields.some((f) => f.fieldPath === fieldPath)) {
      throw badRequest(`Failed to update ${urn} & field ${fieldPath}. Field ${fieldPath} does not exist in the datasets schema.`);
    }
  }
}

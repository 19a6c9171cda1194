import { findEntitySpec } from '../../catalog/registry/index.ts';
import { parseDatasetUrn, parseUrn, type DatasetKey } from '../../catalog/urn.ts';
import type { Json } from '../../storage/store.ts';
import type { EntityAspects } from './entity-loader.ts';
import { typenameOfEntity } from './entity-types.ts';
import type { GraphqlContext } from './schema.ts';

/** A Dataset as its resolvers read it: the aspects a query needs, read up front. */
export interface DatasetSource {
  readonly __typename?: 'Dataset';
  readonly urn: string;
  readonly key: DatasetKey;
  readonly aspects: EntityAspects;
  /** false for a reference to a dataset that is not stored (a replacement or search hit always exists). */
  readonly exists?: boolean;
}

/** Any other entity: its fields read their aspects when selected, batched per request by the EntityLoader. */
export interface EntitySource {
  readonly __typename: string;
  readonly urn: string;
  /** The registry entity name. */
  readonly entity: string;
  /** The urn's key parts, in the key aspect's field order. */
  readonly parts: readonly string[];
}

/** What a reference to a dataset reads at once: what search results and deprecation replacements show. */
export const DATASET_REF_ASPECTS = ['datasetProperties', 'deprecation', 'schemaMetadata', 'status'];

/** The Dataset fields that read DatasetSource.aspects, and the aspect each reads; its other fields read theirs through the EntityLoader. */
const ASPECT_OF_FIELD: Readonly<Record<string, string>> = {
  status: 'status',
  properties: 'datasetProperties',
  deprecation: 'deprecation',
  deprecationState: 'deprecation',
  daysToDecommission: 'deprecation',
  schemaMetadata: 'schemaMetadata',
};

/** The aspects a dataset's selected fields read from DatasetSource.aspects, sorted. */
export const datasetAspectsOf = (fields: Iterable<string>): string[] => [...new Set([...fields].flatMap((f) => ASPECT_OF_FIELD[f] ?? []))].sort();

/**
 * The GraphQL value for any urn, or null when Almanac has no GraphQL type for
 * its entity (or the urn is malformed). Like DataHub, a reference does not
 * check that the entity exists, except that a dataset reads its aspects.
 */
export async function entityRef(
  ctx: GraphqlContext,
  urn: string | null | undefined,
  datasetAspects: readonly string[] | null = DATASET_REF_ASPECTS,
): Promise<DatasetSource | EntitySource | null> {
  if (!urn) return null;
  let parsed;
  try {
    parsed = parseUrn(urn);
  } catch {
    return null;
  }
  const spec = findEntitySpec(parsed.entityType);
  const typename = spec && typenameOfEntity(spec.name);
  if (!spec || !typename) return null;
  if (typename === 'Dataset') {
    let key: DatasetKey;
    try {
      key = parseDatasetUrn(parsed);
    } catch {
      return null;
    }
    // null: the caller knows the dataset exists and needs none of its aspects.
    if (datasetAspects === null) return { __typename: 'Dataset', urn, key, aspects: new Map() };
    const aspects = await ctx.entities.load(urn, datasetAspects);
    return { __typename: 'Dataset', urn, key, aspects: aspects ?? new Map(), exists: aspects !== undefined };
  }
  return { __typename: typename, urn, entity: spec.name, parts: parsed.parts };
}

/**
 * References to a search's hits, whose entities the index holds, given the fields selected on them: a dataset reads
 * only the aspects those fields need, and nothing when they need none and do not ask whether it exists. A scroll of
 * urns alone (the SDK's `get_urns_by_filter`) read four aspects of every hit, its schema among them: a page of 5,000
 * datasets at a million entities took 0.7 s warm, 30 s from a cold cache.
 */
export async function hitRefs(
  ctx: GraphqlContext,
  urns: readonly string[],
  fields: ReadonlySet<string>,
): Promise<Array<DatasetSource | EntitySource>> {
  const aspects = datasetAspectsOf(fields);
  const read = aspects.length > 0 || fields.has('exists') ? aspects : null;
  return (await Promise.all(urns.map((urn) => entityRef(ctx, urn, read)))).filter((e) => e !== null);
}

/** The urn part bound to one key field of the entity's key aspect. */
export function keyPart(e: EntitySource, field: string): string | null {
  const i = findEntitySpec(e.entity)?.keyFields.indexOf(field) ?? -1;
  return i >= 0 ? (e.parts[i] ?? null) : null;
}

/** The latest value of one aspect of the entity, or undefined. */
export async function aspectOf(ctx: GraphqlContext, urn: string, aspect: string): Promise<Json | undefined> {
  return (await ctx.entities.load(urn, [aspect]))?.get(aspect);
}

import data from './generated/datahub-registry.json' with { type: 'json' };

/**
 * The shape of `generated/datahub-registry.json`, which `npm run registry:generate`
 * (scripts/generate-registry.ts) writes from the Avro schemas of a pinned
 * acryl-datahub release. Only the generator writes that file.
 */
export interface RegistryData {
  readonly source: { readonly package: string; readonly version: string };
  readonly entities: Readonly<Record<string, RegistryEntity>>;
  readonly aspects: Readonly<Record<string, RegistryAspect>>;
}

export interface RegistryEntity {
  readonly keyAspect: string;
  /** DataHub's `category` (core, internal), null where entity-registry.yml gives none */
  readonly category: string | null;
  /** the key aspect's fields in urn tuple order */
  readonly keyFields: readonly KeyField[];
  /** every other aspect the entity accepts, sorted */
  readonly aspects: readonly string[];
  /** the MetadataChangeEvent snapshot class, for the entities that have one */
  readonly snapshotClass?: string;
}

export type KeyField =
  | { readonly name: string; readonly type: 'string' | 'urn'; readonly optional?: true }
  | { readonly name: string; readonly type: 'enum'; readonly symbols: readonly string[]; readonly optional?: true };

export type AspectKind = 'key' | 'versioned' | 'timeseries';

export interface RegistryAspect {
  readonly kind: AspectKind;
  /** the Pegasus class, e.g. com.linkedin.dataset.UpstreamLineage */
  readonly class: string;
  /** timeseries only: the `@TimeseriesFieldCollection` fields DataHub explodes into extra index documents */
  readonly collections?: readonly string[];
  readonly relationships?: readonly RegistryRelationship[];
  /** `@Searchable` annotations: the search index fields DataHub fills from this aspect */
  readonly searchable?: readonly RegistrySearchable[];
  /** every urn-typed field (DataHub's `Urn` typerefs), which a write must fill with urns of the types they allow */
  readonly urns?: readonly RegistryUrnField[];
}

/** One urn-typed field: DataHub's EntityRegistryUrnValidator and UrnAnnotationValidator check its values on write. */
export interface RegistryUrnField {
  /** PathSpec without the leading slash; `*` is every array element or map value; an array of urns ends at the field */
  readonly path: string;
  /** a typed urn's typeref (DatasetUrn, CorpuserUrn, ...), absent for the generic Urn */
  readonly typeref?: string;
  /** the entity type a typed urn holds */
  readonly entityType?: string;
  /** the entity types a strict `@UrnValidation` allows */
  readonly allowed?: readonly string[];
}

/** One `@Relationship` annotation: a urn-valued field pointing at other entities. */
export interface RegistryRelationship {
  /** DataHub's PathSpec without the leading slash: `*` is every array element or map value */
  readonly path: string;
  readonly name: string;
  readonly entityTypes: readonly string[];
  readonly isLineage?: boolean;
  readonly isUpstream?: boolean;
  /** per path segment, whether it is an optional record field (what reference removal may drop) */
  readonly optional: readonly boolean[];
  /** the path of the urn the relationship holds through (DataHub's `via`), under the same wildcards as `path` */
  readonly via?: string;
}

/** One `@Searchable` annotation: a search index field and where in the aspect its values are. */
export interface RegistrySearchable {
  /** PathSpec without the leading slash; `*` is every array element or map value */
  readonly path: string;
  /** the index field name (`fieldName`, else the annotated field's name) */
  readonly name: string;
  /** DataHub's fieldType: KEYWORD, TEXT, URN, BOOLEAN, COUNT, DATETIME, ... */
  readonly type?: string;
  /** How much a match in this field weighs in ranking (DataHub's default 1 is left out). */
  readonly boostScore?: number;
  readonly enableAutocomplete?: boolean;
  /** Offered as a filter and facet in DataHub's UI. */
  readonly addToFilters?: boolean;
  readonly filterNameOverride?: string;
  /** false: a plain query does not search this field (DataHub's default is true). */
  readonly queryByDefault?: boolean;
  /** A boolean field saying whether this one has any value (`hasDescription`). */
  readonly hasValuesFieldName?: string;
  /** A count field of this one's values (`numTags`). */
  readonly numValuesFieldName?: string;
  readonly fieldNameAliases?: readonly string[];
}

export const DATAHUB_REGISTRY: RegistryData = data as RegistryData;

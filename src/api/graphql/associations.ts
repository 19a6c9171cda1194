import type { Json } from '../../storage/store.ts';
import { auditStamp, str } from './entity-fields.ts';
import { aspectOf, entityRef } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * The types DataHub's GraphQL gives what people attach to any entity (owners,
 * tags, terms, domain, links, structured properties) and how their values are
 * built from the stored aspects. Names and types are DataHub's (entity.graphql).
 */
const typeDefs = /* GraphQL */ `
  union OwnerType = CorpUser | CorpGroup

  union ResolvedActor = CorpUser | CorpGroup

  type Owner {
    owner: OwnerType!
    ownershipType: OwnershipTypeEntity
    associatedUrn: String!
  }

  type Ownership {
    owners: [Owner!]
    lastModified: AuditStamp!
  }

  type TagAssociation {
    tag: Tag!
    associatedUrn: String!
    context: String
  }

  type GlobalTags {
    tags: [TagAssociation!]
  }

  type GlossaryTermAssociation {
    term: GlossaryTerm!
    associatedUrn: String!
    context: String
  }

  type GlossaryTerms {
    terms: [GlossaryTermAssociation!]
  }

  type DomainAssociation {
    domain: Domain!
    associatedUrn: String!
  }

  type CustomPropertiesEntry {
    key: String!
    value: String
    associatedUrn: String!
  }

  type InstitutionalMemoryMetadata {
    url: String!
    label: String!
    author: CorpUser! @deprecated(reason: "Use actor")
    actor: ResolvedActor!
    created: AuditStamp!
    updated: AuditStamp
    description: String! @deprecated
    associatedUrn: String!
    "How the UI shows the link (written by addLink, updateLink and upsertLink)."
    settings: InstitutionalMemoryMetadataSettings
  }

  type InstitutionalMemoryMetadataSettings {
    showInAssetPreview: Boolean!
  }

  type InstitutionalMemory {
    elements: [InstitutionalMemoryMetadata!]!
  }

  type StringValue {
    stringValue: String!
  }

  type NumberValue {
    numberValue: Float!
  }

  union PropertyValue = StringValue | NumberValue

  type StructuredPropertiesEntry {
    structuredProperty: StructuredPropertyEntity!
    values: [PropertyValue]!
    "The values that are urns, as entities."
    valueEntities: [Entity]
    associatedUrn: String!
  }

  type StructuredProperties {
    properties: [StructuredPropertiesEntry!]
  }
`;

/** The objects of an array-valued aspect field; anything else is none. */
export const objects = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);

/** Association lists keep only the references Almanac can resolve to a GraphQL type (a non-null field cannot be null). */
export async function associations<T>(ctx: GraphqlContext, urns: readonly unknown[], build: (entity: object, i: number) => T): Promise<T[]> {
  const entities = await Promise.all(urns.map((u) => entityRef(ctx, str(u))));
  return entities.flatMap((e, i) => (e ? [build(e, i)] : []));
}

/** A string map as DataHub's StringMapEntry list; null when the field is not a map. */
export function stringMapEntries(map: unknown): { key: string; value: string | null }[] | null {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return null;
  return Object.entries(map as Json).map(([key, value]) => ({ key, value: str(value) }));
}

/** A string map (customProperties) as DataHub's CustomPropertiesEntry list. */
export function customPropertiesEntries(map: unknown, associatedUrn: string) {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  return Object.entries(map as Json).map(([key, value]) => ({ key, value: str(value), associatedUrn }));
}

/** A globalTags value (of an entity or a schema field) as DataHub's GlobalTags. */
export async function globalTags(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  const tags = objects(value.tags);
  return {
    tags: await associations(
      ctx,
      tags.map((t) => t.tag),
      (tag, i) => ({ tag, associatedUrn, context: str(tags[i]!.context) }),
    ),
  };
}

/** A glossaryTerms value as DataHub's GlossaryTerms. */
export async function glossaryTerms(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  const terms = objects(value.terms);
  return {
    terms: await associations(
      ctx,
      terms.map((t) => t.urn),
      (term, i) => ({ term, associatedUrn, context: str(terms[i]!.context) }),
    ),
  };
}

export async function ownership(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  const owners = objects(value.owners);
  return {
    owners: await associations(
      ctx,
      owners.map((o) => o.owner),
      (owner, i) => ({ owner, typeUrn: str(owners[i]!.typeUrn), associatedUrn }),
    ),
    lastModified: auditStamp(value.lastModified) ?? { time: 0, actor: null },
  };
}

/** The first domain of a domains value, as DataHub's DomainAssociation. */
export async function domainAssociation(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  const urns = value?.domains;
  const domain = await entityRef(ctx, Array.isArray(urns) ? str(urns[0]) : null);
  return domain ? { domain, associatedUrn } : null;
}

/** Who wrote a link whose stamp names nobody. */
const UNKNOWN_USER = 'urn:li:corpuser:unknown';

export async function institutionalMemory(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  const elements = await Promise.all(
    objects(value.elements).map(async (el) => {
      const created = auditStamp(el.createStamp) ?? { time: 0, actor: null };
      const actor = await entityRef(ctx, created.actor ?? UNKNOWN_USER);
      const label = str(el.description) ?? '';
      return {
        url: str(el.url) ?? '',
        label,
        description: label,
        // The deprecated author is a user: a group's link names DataHub's unknown user there.
        author: (actor as { __typename?: string } | null)?.__typename === 'CorpUser' ? actor : await entityRef(ctx, UNKNOWN_USER),
        actor,
        created,
        updated: auditStamp(el.updateStamp),
        associatedUrn,
        settings:
          typeof el.settings === 'object' && el.settings !== null ? { showInAssetPreview: (el.settings as Json).showInAssetPreview === true } : null,
      };
    }),
  );
  return { elements: elements.filter((e) => e.actor !== null) };
}

/** A structured property value is a string or a number (DataHub's PrimitivePropertyValue union, stored unwrapped or wrapped). */
function propertyValue(v: unknown): { __typename: string; stringValue?: string; numberValue?: number } | null {
  const inner = typeof v === 'object' && v !== null ? ((v as Json).string ?? (v as Json).double) : v;
  if (typeof inner === 'string') return { __typename: 'StringValue', stringValue: inner };
  if (typeof inner === 'number') return { __typename: 'NumberValue', numberValue: inner };
  return null;
}

export async function structuredProperties(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  // A soft-deleted property's values are left out, as on every read (DataHub's StructuredPropertiesAssignmentMutator).
  const all = objects(value.properties);
  const statuses = await Promise.all(all.map((p) => (typeof p.propertyUrn === 'string' ? aspectOf(ctx, p.propertyUrn, 'status') : undefined)));
  const entries = all.filter((_, i) => statuses[i]?.removed !== true);
  return {
    properties: await associations(
      ctx,
      entries.map((p) => p.propertyUrn),
      (structuredProperty, i) => {
        const values = (Array.isArray(entries[i]!.values) ? (entries[i]!.values as unknown[]) : []).map(propertyValue);
        return {
          structuredProperty,
          values,
          valueEntities: () => Promise.all(values.map((v) => (v?.stringValue?.startsWith('urn:li:') ? entityRef(ctx, v.stringValue) : null))),
          associatedUrn,
        };
      },
    ),
  };
}

export const associationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Owner: {
      ownershipType: (o: { typeUrn: string | null }, _a, ctx) => entityRef(ctx, o.typeUrn),
    },
  },
};

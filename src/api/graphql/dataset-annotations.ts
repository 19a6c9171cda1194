import type { Json } from '../../storage/store.ts';
import { aspectOf, entityRef, type DatasetSource } from './entity-refs.ts';
import { auditStamp, str } from './entity-fields.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * What people and tools attach to a dataset and its fields: owners, tags,
 * glossary terms, domain and custom properties. Names and types are DataHub's
 * (entity.graphql); a subset of their fields. Each reads its aspect only when
 * selected, batched per request by the EntityLoader.
 */
const typeDefs = /* GraphQL */ `
  union OwnerType = CorpUser | CorpGroup

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

  extend type Dataset {
    "From the ownership aspect."
    ownership: Ownership
    "From the globalTags aspect."
    tags: GlobalTags
    "From the glossaryTerms aspect."
    glossaryTerms: GlossaryTerms
    "The first domain of the domains aspect."
    domain: DomainAssociation
  }

  extend type DatasetProperties {
    customProperties: [CustomPropertiesEntry!]
  }

  extend type SchemaField {
    "The field's tags in schemaMetadata."
    tags: GlobalTags
    "The field's glossary terms in schemaMetadata."
    glossaryTerms: GlossaryTerms
  }
`;

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);

/** Association lists keep only the references Almanac can resolve to a GraphQL type (a non-null field cannot be null). */
async function associations<T>(ctx: GraphqlContext, urns: readonly unknown[], build: (entity: object, i: number) => T): Promise<T[]> {
  const entities = await Promise.all(urns.map((u) => entityRef(ctx, str(u))));
  return entities.flatMap((e, i) => (e ? [build(e, i)] : []));
}

async function globalTags(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  const tags = list(value.tags);
  return {
    tags: await associations(
      ctx,
      tags.map((t) => t.tag),
      (tag, i) => ({ tag, associatedUrn, context: str(tags[i]!.context) }),
    ),
  };
}

async function glossaryTerms(ctx: GraphqlContext, value: Json | undefined, associatedUrn: string) {
  if (!value) return null;
  return {
    terms: await associations(
      ctx,
      list(value.terms).map((t) => t.urn),
      (term) => ({ term, associatedUrn }),
    ),
  };
}

interface FieldSource {
  readonly datasetUrn: string;
  readonly field: Json;
}

export const datasetAnnotationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Dataset: {
      ownership: async (d: DatasetSource, _a, ctx) => {
        const value = await aspectOf(ctx, d.urn, 'ownership');
        if (!value) return null;
        const owners = list(value.owners);
        return {
          owners: await associations(
            ctx,
            owners.map((o) => o.owner),
            (owner, i) => ({ owner, typeUrn: str(owners[i]!.typeUrn), associatedUrn: d.urn }),
          ),
          lastModified: auditStamp(value.lastModified) ?? { time: 0, actor: null },
        };
      },
      tags: async (d: DatasetSource, _a, ctx) => globalTags(ctx, await aspectOf(ctx, d.urn, 'globalTags'), d.urn),
      glossaryTerms: async (d: DatasetSource, _a, ctx) => glossaryTerms(ctx, await aspectOf(ctx, d.urn, 'glossaryTerms'), d.urn),
      domain: async (d: DatasetSource, _a, ctx) => {
        const urns = (await aspectOf(ctx, d.urn, 'domains'))?.domains;
        const domain = await entityRef(ctx, Array.isArray(urns) ? str(urns[0]) : null);
        return domain ? { domain, associatedUrn: d.urn } : null;
      },
    },
    Owner: {
      ownershipType: (o: { typeUrn: string | null }, _a, ctx) => entityRef(ctx, o.typeUrn),
    },
    DatasetProperties: {
      // customProperties is a string map in datasetProperties; DataHub lists it as entries.
      customProperties: (p: { customProperties?: unknown; associatedUrn: string }) => {
        const map = p.customProperties;
        if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
        return Object.entries(map as Json).map(([key, value]) => ({ key, value: str(value), associatedUrn: p.associatedUrn }));
      },
    },
    SchemaField: {
      tags: (f: FieldSource, _a, ctx) => globalTags(ctx, f.field.globalTags as Json | undefined, f.datasetUrn),
      glossaryTerms: (f: FieldSource, _a, ctx) => glossaryTerms(ctx, f.field.glossaryTerms as Json | undefined, f.datasetUrn),
    },
  },
};

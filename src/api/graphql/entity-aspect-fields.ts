import { isNonNullType, Kind, parse, type DocumentNode } from 'graphql';
import { badRequest } from '../../catalog/errors.ts';
import { findEntitySpec } from '../../catalog/registry/index.ts';
import { parseUrn } from '../../catalog/urn.ts';
import type { Json } from '../../storage/store.ts';
import { domainAssociation, globalTags, glossaryTerms, institutionalMemory, ownership, structuredProperties } from './associations.ts';
import { embed, origin, siblings, viewProperties } from './aspect-values.ts';
import { browsePathsField, browsePathV2Field } from './browse-paths.ts';
import { documentation, inputFields } from './input-fields.ts';
import { mlTrainingRunProperties } from './ml-training.ts';
import { deprecationField, fromAspect, parentChain, refFromAspect, statusField, str, subTypesField } from './entity-fields.ts';
import { aspectOf, entityRef, type EntitySource } from './entity-refs.ts';
import { ENTITY_TYPE_ROWS } from './entity-types.ts';
import type { GraphqlContext, GraphqlModule, Resolver, Resolvers } from './schema.ts';

/**
 * The fields DataHub's GraphQL derives from one common aspect, given to every
 * entity type whose registry entity accepts that aspect (DataHub declares them
 * type by type; the registry says which types can hold the aspect, so this
 * list is what DataHub's GraphQL adds: the field's name, type and reading).
 * A type that already declares a field in its own module keeps its own.
 */
interface AspectField {
  readonly aspect: string;
  readonly field: string;
  readonly sdl: string;
  /** The field's type on the entity types where DataHub declares it otherwise (by GraphQL typename). */
  readonly sdlOn?: Readonly<Record<string, string>>;
  readonly resolve: Resolver;
}

/** DataHub's platform when no dataPlatformInstance says one: `datahub` for documents, `unknown` for the rest. */
const DEFAULT_PLATFORM: Readonly<Record<string, string>> = { Document: 'urn:li:dataPlatform:datahub' };
const fromInstance = refFromAspect('dataPlatformInstance', (v) => v.platform);
const platformOfInstance: Resolver = async (e, args, ctx, info) =>
  (await fromInstance(e, args, ctx, info)) ??
  (isNonNullType(info.returnType) ? entityRef(ctx, DEFAULT_PLATFORM[info.parentType.name] ?? 'urn:li:dataPlatform:unknown') : null);

type Build = (ctx: GraphqlContext, value: Json | undefined, urn: string) => unknown;
const built =
  (aspect: string, build: Build): Resolver =>
  async (e: { urn: string }, _a, ctx) =>
    build(ctx, await aspectOf(ctx, e.urn, aspect), e.urn);

/** DataHub's ParentContainersResolver: the container, its container, ... nearest first. */
const parentContainers: Resolver = async (e: { urn: string }, _a, ctx) => {
  const chain = await parentChain(ctx, e.urn, 'container', 'container');
  const containers = (await Promise.all(chain.map((urn) => entityRef(ctx, urn)))).filter((c) => c !== null);
  return { count: containers.length, containers };
};

const FIELDS: readonly AspectField[] = [
  { aspect: 'ownership', field: 'ownership', sdl: 'Ownership', resolve: built('ownership', ownership) },
  { aspect: 'globalTags', field: 'tags', sdl: 'GlobalTags', resolve: built('globalTags', globalTags) },
  { aspect: 'globalTags', field: 'globalTags', sdl: 'GlobalTags @deprecated(reason: "Use tags")', resolve: built('globalTags', globalTags) },
  { aspect: 'glossaryTerms', field: 'glossaryTerms', sdl: 'GlossaryTerms', resolve: built('glossaryTerms', glossaryTerms) },
  { aspect: 'domains', field: 'domain', sdl: 'DomainAssociation', resolve: built('domains', domainAssociation) },
  {
    aspect: 'institutionalMemory',
    field: 'institutionalMemory',
    sdl: 'InstitutionalMemory',
    resolve: built('institutionalMemory', institutionalMemory),
  },
  {
    aspect: 'structuredProperties',
    field: 'structuredProperties',
    sdl: 'StructuredProperties',
    resolve: built('structuredProperties', structuredProperties),
  },
  { aspect: 'status', field: 'status', sdl: 'Status', resolve: statusField },
  { aspect: 'deprecation', field: 'deprecation', sdl: 'Deprecation', resolve: deprecationField },
  { aspect: 'subTypes', field: 'subTypes', sdl: 'SubTypes', resolve: subTypesField },
  { aspect: 'container', field: 'container', sdl: 'Container', resolve: refFromAspect('container', (v) => v.container) },
  { aspect: 'container', field: 'parentContainers', sdl: 'ParentContainersResult', resolve: parentContainers },
  {
    aspect: 'dataPlatformInstance',
    field: 'dataPlatformInstance',
    sdl: 'DataPlatformInstance',
    resolve: refFromAspect('dataPlatformInstance', (v) => v.instance),
  },
  {
    // Containers and other entities whose key names no platform carry it here.
    aspect: 'dataPlatformInstance',
    field: 'platform',
    sdl: 'DataPlatform',
    // Non-null where DataHub declares it so: a client selecting `platform` on several types in one document (the
    // datahub CLI's search fragments) needs the same nullability on each, or the document is refused as conflicting.
    sdlOn: Object.fromEntries(['Container', 'Document', 'Metric', 'Notebook', 'SemanticModel'].map((t) => [t, 'DataPlatform!'])),
    resolve: platformOfInstance,
  },
  { aspect: 'inputFields', field: 'inputFields', sdl: 'InputFields', resolve: built('inputFields', inputFields) },
  { aspect: 'documentation', field: 'documentation', sdl: 'Documentation', resolve: built('documentation', documentation) },
  {
    aspect: 'mlTrainingRunProperties',
    field: 'mlTrainingRunProperties',
    sdl: 'MLTrainingRunProperties',
    resolve: built('mlTrainingRunProperties', mlTrainingRunProperties),
  },
  { aspect: 'embed', field: 'embed', sdl: 'Embed', resolve: built('embed', embed) },
  { aspect: 'siblings', field: 'siblings', sdl: 'SiblingProperties', resolve: built('siblings', siblings) },
  { aspect: 'viewProperties', field: 'viewProperties', sdl: 'ViewProperties', resolve: built('viewProperties', viewProperties) },
  {
    aspect: 'logicalParent',
    field: 'logicalParent',
    sdl: 'Entity',
    resolve: refFromAspect('logicalParent', (v) => (v.parent as Json | undefined)?.destinationUrn),
  },
  { aspect: 'origin', field: 'origin', sdl: 'Origin', resolve: built('origin', origin) },
  { aspect: 'browsePaths', field: 'browsePaths', sdl: '[BrowsePath!]', resolve: browsePathsField },
  { aspect: 'browsePathsV2', field: 'browsePathV2', sdl: 'BrowsePathV2', resolve: browsePathV2Field },
];

/** `editableProperties` of an entity with an editable*Properties aspect: DataHub's <Type>EditableProperties. */
const EDITABLE = /^editable\w*Properties$/;
const editableProperties = (aspect: string): Resolver => fromAspect(aspect, (v) => ({ description: str(v.description), name: str(v.name) }));

const sharedTypeDefs = /* GraphQL */ `
  type ParentContainersResult {
    count: Int!
    containers: [Container!]!
  }

  enum RelationshipDirection {
    INCOMING
    OUTGOING
  }

  input RelationshipsInput {
    types: [String!]!
    direction: RelationshipDirection!
    start: Int
    count: Int
    "Accepted for DataHub's clients: Almanac's relationship reads always leave soft-deleted entities out."
    includeSoftDelete: Boolean = true
    relatedEntityTypes: [String!]
  }

  type EntityRelationship {
    type: String!
    direction: RelationshipDirection!
    entity: Entity
    created: AuditStamp
  }

  type EntityRelationshipsResult {
    start: Int
    count: Int
    total: Int
    relationships: [EntityRelationship!]!
  }
`;

/** The most a relationships field lists at once (DataHub's default page is 100). */
const MAX_RELATIONSHIPS = 1000;

interface RelationshipsInput {
  types: readonly string[];
  direction: 'INCOMING' | 'OUTGOING';
  start?: number | null;
  count?: number | null;
  relatedEntityTypes?: readonly string[] | null;
}

/** DataHub's `relationships` field: one hop of the named edge types, in or out. */
export const relationshipsField: Resolver = async (e: EntitySource, { input }: { input: RelationshipsInput }, ctx) => {
  const start = input.start ?? 0;
  const count = input.count ?? 100;
  if (start < 0 || count < 0) throw badRequest('relationships: start and count must not be negative');
  const page = await ctx.app.relationships.relatedEntities({
    urn: e.urn,
    types: input.types,
    direction: input.direction,
    start,
    count: Math.min(count, MAX_RELATIONSHIPS),
  });
  // DataHub names the related types by registry name (dataset, corpuser), as the urns do.
  const wanted = input.relatedEntityTypes?.map((t) => t.toLowerCase());
  const related = page.entities.filter((r) => !wanted || wanted.includes(parseUrn(r.urn).entityType.toLowerCase()));
  const rows = await Promise.all(
    related.map(async (r) => ({ type: r.relationshipType, direction: input.direction, entity: await entityRef(ctx, r.urn), created: null })),
  );
  const relationships = rows.filter((r) => r.entity !== null);
  return { start, count: relationships.length, total: page.total, relationships };
};

/** The fields each object type declares in the given SDL (its definition and extensions together). */
function declaredFields(documents: readonly DocumentNode[]): Map<string, Set<string>> {
  const declared = new Map<string, Set<string>>();
  for (const doc of documents) {
    for (const def of doc.definitions) {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      const fields = declared.get(def.name.value) ?? new Set<string>();
      for (const f of def.fields ?? []) fields.add(f.name.value);
      declared.set(def.name.value, fields);
    }
  }
  return declared;
}

/**
 * The module of common aspect fields for the entity types the other modules
 * declare: built from their SDL, so a field a module writes by hand wins.
 */
export function entityAspectFieldsModule(modules: readonly GraphqlModule[]): GraphqlModule {
  const declared = declaredFields(modules.map((m) => parse(m.typeDefs)));
  const sdl: string[] = [sharedTypeDefs];
  const resolvers: Record<string, Record<string, Resolver>> = {};
  for (const row of ENTITY_TYPE_ROWS) {
    const spec = row.entity && row.typename ? findEntitySpec(row.entity) : undefined;
    const own = row.typename ? declared.get(row.typename) : undefined;
    if (!spec || !row.typename || !own) continue;
    const typename = row.typename;
    const aspects = new Set(spec.aspects);
    const added: string[] = [];
    const mine: Record<string, Resolver> = {};
    const add = (field: string, type: string, resolve: Resolver, args = '') => {
      if (own.has(field) || mine[field]) return;
      added.push(`    ${field}${args}: ${type}`);
      mine[field] = resolve;
    };
    for (const f of FIELDS) if (aspects.has(f.aspect)) add(f.field, f.sdlOn?.[typename] ?? f.sdl, f.resolve);
    const editable = spec.aspects.find((a) => EDITABLE.test(a));
    if (editable && !own.has('editableProperties')) {
      const editableType = `${typename}EditableProperties`;
      if (!declared.has(editableType)) sdl.push(`  type ${editableType} {\n    description: String\n    name: String\n  }`);
      add('editableProperties', editableType, editableProperties(editable));
    }
    add('relationships', 'EntityRelationshipsResult', relationshipsField, '(input: RelationshipsInput!)');
    if (added.length === 0) continue;
    sdl.push(`  extend type ${typename} {\n${added.join('\n')}\n  }`);
    resolvers[typename] = mine;
  }
  return { typeDefs: sdl.join('\n\n'), resolvers: resolvers as Resolvers };
}

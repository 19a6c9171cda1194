import type { Json } from '../../storage/store.ts';
import { customPropertiesEntries } from './associations.ts';
import { COMMON, existsField, fromAspect, keyField, parentChain, str } from './entity-fields.ts';
import { entityRef, keyPart, type EntitySource } from './entity-refs.ts';
import { listEntities, listPaging } from './entity-search-fields.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** What GlossaryTermProperties and the deprecated GlossaryTermInfo share besides the name. */
const TERM_INFO_FIELDS = `description: String
    definition: String! @deprecated
    termSource: String!
    sourceRef: String
    sourceUrl: String
    customProperties: [CustomPropertiesEntry!]
    rawSchema: String`;

/** DataHub's glossary: terms and nodes with their parent nodes, and the root listings. */
const typeDefs = /* GraphQL */ `
  type GlossaryTerm implements Entity {
    urn: String!
    type: EntityType!
    name: String! @deprecated
    hierarchicalName: String!
    properties: GlossaryTermProperties
    glossaryTermInfo: GlossaryTermInfo @deprecated
    "The parent node, its parent, ... nearest first."
    parentNodes: ParentNodesResult
    exists: Boolean
  }

  type GlossaryTermProperties {
    name: String!
    ${TERM_INFO_FIELDS}
  }

  type GlossaryTermInfo {
    name: String
    ${TERM_INFO_FIELDS}
  }

  type GlossaryNode implements Entity {
    urn: String!
    type: EntityType!
    properties: GlossaryNodeProperties
    parentNodes: ParentNodesResult
    "How many terms and nodes have this node as their parent."
    childrenCount: GlossaryNodeChildrenCount
    exists: Boolean
  }

  type GlossaryNodeProperties {
    name: String!
    description: String
    customProperties: [CustomPropertiesEntry!]
  }

  type GlossaryNodeChildrenCount {
    termsCount: Int!
    nodesCount: Int!
  }

  type ParentNodesResult {
    count: Int!
    nodes: [GlossaryNode!]!
  }

  input GetRootGlossaryEntitiesInput {
    start: Int!
    count: Int!
  }

  type GetRootGlossaryTermsResult {
    terms: [GlossaryTerm!]!
    start: Int!
    count: Int!
    total: Int!
  }

  type GetRootGlossaryNodesResult {
    nodes: [GlossaryNode!]!
    start: Int!
    count: Int!
    total: Int!
  }

  extend type Query {
    "Glossary terms in no node, a page at a time."
    getRootGlossaryTerms(input: GetRootGlossaryEntitiesInput!): GetRootGlossaryTermsResult
    "Glossary nodes in no node, a page at a time."
    getRootGlossaryNodes(input: GetRootGlossaryEntitiesInput!): GetRootGlossaryNodesResult
  }
`;

/** The entities of one type with no parent node (DataHub's hasParentNode false filter). */
const roots = (ctx: GraphqlContext, entity: string, input: { start: number; count: number }) =>
  listEntities(ctx, { entity, filter: [[{ field: 'hasParentNode', values: ['false'] }]] }, listPaging(input, 0));

/** The chain above a term or node: its info's parentNode, then each node's. */
async function parentNodes(e: EntitySource, infoAspect: string, ctx: GraphqlContext) {
  const first = str((await ctx.entities.load(e.urn, [infoAspect]))?.get(infoAspect)?.parentNode);
  const chain = first ? [first, ...(await parentChain(ctx, first, 'glossaryNodeInfo', 'parentNode'))] : [];
  const nodes = (await Promise.all(chain.map((urn) => entityRef(ctx, urn)))).filter((n) => n !== null);
  return { count: nodes.length, nodes };
}

const termInfo = (v: Json, e: EntitySource) => ({
  name: str(v.name) ?? keyPart(e, 'name') ?? '',
  description: str(v.definition),
  definition: str(v.definition) ?? '',
  termSource: str(v.termSource) ?? '',
  sourceRef: str(v.sourceRef),
  sourceUrl: str(v.sourceUrl),
  customProperties: customPropertiesEntries(v.customProperties, e.urn),
  rawSchema: str(v.rawSchema),
});

const countChildren = async (ctx: GraphqlContext, entity: string, urn: string) =>
  (await listEntities(ctx, { entity, filter: [[{ field: 'parentNode', values: [urn] }]] }, { start: 0, count: 0 })).total;

export const glossaryModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      getRootGlossaryTerms: async (_s, { input }: { input: { start: number; count: number } }, ctx) => {
        const { entities, ...page } = await roots(ctx, 'glossaryTerm', input);
        return { ...page, terms: entities };
      },
      getRootGlossaryNodes: async (_s, { input }: { input: { start: number; count: number } }, ctx) => {
        const { entities, ...page } = await roots(ctx, 'glossaryNode', input);
        return { ...page, nodes: entities };
      },
    },
    GlossaryTerm: {
      ...COMMON,
      name: keyField('name'),
      hierarchicalName: keyField('name'),
      properties: fromAspect('glossaryTermInfo', termInfo),
      glossaryTermInfo: fromAspect('glossaryTermInfo', termInfo),
      parentNodes: (e: EntitySource, _a, ctx) => parentNodes(e, 'glossaryTermInfo', ctx),
      exists: existsField,
    },
    GlossaryNode: {
      ...COMMON,
      properties: fromAspect('glossaryNodeInfo', (v, e) => ({
        name: str(v.name) ?? keyPart(e, 'name') ?? '',
        description: str(v.definition),
        customProperties: customPropertiesEntries(v.customProperties, e.urn),
      })),
      parentNodes: (e: EntitySource, _a, ctx) => parentNodes(e, 'glossaryNodeInfo', ctx),
      childrenCount: async (e: EntitySource, _a, ctx) => {
        const [termsCount, nodesCount] = await Promise.all([countChildren(ctx, 'glossaryTerm', e.urn), countChildren(ctx, 'glossaryNode', e.urn)]);
        return { termsCount, nodesCount };
      },
      exists: existsField,
    },
  },
};

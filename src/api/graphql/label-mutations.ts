import type { LabelKind } from '../../catalog/curation/curation.ts';
import type { ResourceRef, SubResourceType } from '../../catalog/resource-refs.ts';
import { parseUrn } from '../../catalog/urn.ts';
import { curate, namesField, resourceList, resourceOf, type Check } from './curation.ts';
import type { GraphqlContext, GraphqlModule, Resolver } from './schema.ts';

/** DataHub's tag and glossary term mutations (entity.graphql): argument and input types as DataHub declares them. */
const typeDefs = /* GraphQL */ `
  input TagAssociationInput {
    tagUrn: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input AddTagsInput {
    tagUrns: [String!]!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input BatchAddTagsInput {
    tagUrns: [String!]!
    resources: [ResourceRefInput!]!
  }

  input BatchRemoveTagsInput {
    tagUrns: [String!]!
    resources: [ResourceRefInput]!
  }

  input TermAssociationInput {
    termUrn: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input AddTermsInput {
    termUrns: [String!]!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input BatchAddTermsInput {
    termUrns: [String!]!
    resources: [ResourceRefInput]!
  }

  input BatchRemoveTermsInput {
    termUrns: [String!]!
    resources: [ResourceRefInput]!
  }

  extend type Mutation {
    "Adds a tag to an entity, or with subResource to a dataset field (its editableSchemaMetadata); true."
    addTag(input: TagAssociationInput!): Boolean
    addTags(input: AddTagsInput!): Boolean
    "Adds tags to several entities or fields: all are checked before any is written, in one transaction."
    batchAddTags(input: BatchAddTagsInput!): Boolean
    removeTag(input: TagAssociationInput!): Boolean
    batchRemoveTags(input: BatchRemoveTagsInput!): Boolean
    addTerm(input: TermAssociationInput!): Boolean
    addTerms(input: AddTermsInput!): Boolean
    batchAddTerms(input: BatchAddTermsInput!): Boolean
    removeTerm(input: TermAssociationInput!): Boolean
    batchRemoveTerms(input: BatchRemoveTermsInput!): Boolean
  }
`;

/** Any of the inputs above: one resource (with one label or several) or a list of resources. */
interface LabelInput {
  readonly tagUrn?: string;
  readonly tagUrns?: readonly string[];
  readonly termUrn?: string;
  readonly termUrns?: readonly string[];
  readonly resourceUrn?: string;
  readonly subResourceType?: SubResourceType | null;
  readonly subResource?: string | null;
  readonly resources?: ReadonlyArray<ResourceRef | null>;
}

/**
 * The privilege DataHub asks for: EDIT_ENTITY or the label's own, which for a field is the column privilege
 * (for tags only on datasets: AuthUtil.tagModificationPrivilege).
 */
function operationFor(kind: LabelKind, r: ResourceRef): Check {
  const field = namesField(r);
  if (kind === 'term') return [field ? 'editFieldTerms' : 'editTerms', r.resourceUrn];
  return [field && parseUrn(r.resourceUrn).entityType === 'dataset' ? 'editFieldTags' : 'editTags', r.resourceUrn];
}

const labelMutation =
  (kind: LabelKind, change: 'add' | 'remove', mutation: string): Resolver =>
  (_s, { input }: { input: LabelInput }, ctx: GraphqlContext) => {
    const one = kind === 'tag' ? input.tagUrn : input.termUrn;
    const urns = (kind === 'tag' ? input.tagUrns : input.termUrns) ?? [one!];
    const batch = input.resources !== undefined;
    const refs: ReadonlyArray<ResourceRef | null> = batch ? input.resources! : [resourceOf({ ...input, resourceUrn: input.resourceUrn! })];
    return curate(
      ctx,
      refs.flatMap((r) => (r === null ? [] : [operationFor(kind, r)])),
      { n: refs.length, field: batch ? 'input.resources' : 'input' },
      () => ctx.app.curation.changeLabels(kind, change, urns, resourceList(refs), { mutation, actor: ctx.principal.actorUrn }),
    );
  };

export const labelMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      addTag: labelMutation('tag', 'add', 'addTag'),
      addTags: labelMutation('tag', 'add', 'addTags'),
      batchAddTags: labelMutation('tag', 'add', 'batchAddTags'),
      removeTag: labelMutation('tag', 'remove', 'removeTag'),
      batchRemoveTags: labelMutation('tag', 'remove', 'batchRemoveTags'),
      addTerm: labelMutation('term', 'add', 'addTerm'),
      addTerms: labelMutation('term', 'add', 'addTerms'),
      batchAddTerms: labelMutation('term', 'add', 'batchAddTerms'),
      removeTerm: labelMutation('term', 'remove', 'removeTerm'),
      batchRemoveTerms: labelMutation('term', 'remove', 'batchRemoveTerms'),
    },
  },
};

import type { PolicyUpdateInput } from '../../auth/policy-input.ts';
import type { Policy, PolicyMatchFilter } from '../../auth/policy.ts';
import { entityRef } from './entity-refs.ts';
import { searchFilterOf, type AndFilter } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's policy types and operations (entity.graphql), as its clients and UI send them. */
const typeDefs = /* GraphQL */ `
  enum PolicyType {
    METADATA
    PLATFORM
  }

  enum PolicyState {
    DRAFT
    ACTIVE
    INACTIVE
  }

  enum PolicyMatchCondition {
    EQUALS
    STARTS_WITH
    NOT_EQUALS
  }

  type PolicyMatchCriterionValue {
    value: String!
    entity: Entity
  }

  type PolicyMatchCriterion {
    field: String!
    values: [PolicyMatchCriterionValue!]!
    condition: PolicyMatchCondition!
  }

  type PolicyMatchFilter {
    criteria: [PolicyMatchCriterion!]
  }

  type ResourceFilter {
    type: String @deprecated
    resources: [String!] @deprecated
    allResources: Boolean @deprecated
    filter: PolicyMatchFilter
    privilegeConstraints: PolicyMatchFilter
  }

  type ActorFilter {
    users: [String!]
    groups: [String!]
    roles: [String!]
    resourceOwners: Boolean!
    resourceOwnersTypes: [String!]
    allUsers: Boolean!
    allGroups: Boolean!
    resolvedUsers: [CorpUser!]
    resolvedGroups: [CorpGroup!]
  }

  type Policy {
    urn: String!
    type: PolicyType!
    name: String!
    state: PolicyState!
    description: String
    resources: ResourceFilter
    privileges: [String!]!
    actors: ActorFilter!
    editable: Boolean!
  }

  type ListPoliciesResult {
    start: Int!
    count: Int!
    total: Int!
    policies: [Policy!]!
  }

  input ListPoliciesInput {
    start: Int
    count: Int
    query: String
    "Over dataHubPolicyInfo's searchable fields: state, type, privileges, users, groups, roles, editable, ..."
    orFilters: [AndFilterInput!]
  }

  input PolicyMatchCriterionInput {
    field: String!
    values: [String!]!
    condition: PolicyMatchCondition!
  }

  input PolicyMatchFilterInput {
    criteria: [PolicyMatchCriterionInput!]
  }

  input ResourceFilterInput {
    type: String
    resources: [String!]
    allResources: Boolean
    filter: PolicyMatchFilterInput
    privilegeConstraints: PolicyMatchFilterInput
  }

  input ActorFilterInput {
    users: [String!]
    groups: [String!]
    resourceOwners: Boolean!
    resourceOwnersTypes: [String!]
    allUsers: Boolean!
    allGroups: Boolean!
  }

  input PolicyUpdateInput {
    type: PolicyType!
    name: String!
    state: PolicyState!
    description: String
    resources: ResourceFilterInput
    privileges: [String!]!
    actors: ActorFilterInput!
  }

  extend type Query {
    "Policies, most recently updated first (needs MANAGE_POLICIES)."
    listPolicies(input: ListPoliciesInput!): ListPoliciesResult
  }

  extend type Mutation {
    "Creates a policy under a new urn and returns it (needs MANAGE_POLICIES)."
    createPolicy(input: PolicyUpdateInput!): String
    "Replaces a policy and returns its urn (needs MANAGE_POLICIES)."
    updatePolicy(urn: String!, input: PolicyUpdateInput!): String
    "Deletes a policy and returns its urn (needs MANAGE_POLICIES); it stops applying at once."
    deletePolicy(urn: String!): String
  }
`;

const filterView = (f: PolicyMatchFilter | undefined) =>
  f && { criteria: f.criteria.map((c) => ({ field: c.field, condition: c.condition, values: c.values.map((value) => ({ value })) })) };

/** DataHub's PolicyInfoPolicyMapper: the stored info in GraphQL's names. */
function policyView({ urn, info }: Policy) {
  const r = info.resources;
  return {
    urn,
    type: info.type,
    name: info.displayName,
    state: info.state,
    description: info.description,
    privileges: info.privileges,
    actors: info.actors,
    editable: info.editable,
    resources: r && { ...r, filter: filterView(r.filter), privilegeConstraints: filterView(r.privilegeConstraints) },
  };
}

const refs = async (ctx: GraphqlContext, urns: readonly string[] | undefined) =>
  urns && (await Promise.all(urns.map((u) => entityRef(ctx, u)))).filter((e) => e !== null);

interface ListInput {
  start?: number | null;
  count?: number | null;
  query?: string | null;
  orFilters?: readonly AndFilter[] | null;
}

export const policiesModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listPolicies: async (_s, { input }: { input: ListInput }, ctx) => {
        const page = await ctx.app.policies.list(ctx.principal, { ...input, filter: searchFilterOf(input.orFilters ?? []) });
        return { ...page, policies: page.policies.map(policyView) };
      },
    },
    Mutation: {
      createPolicy: (_s, { input }: { input: PolicyUpdateInput }, ctx) => ctx.app.policies.create(ctx.principal, input),
      updatePolicy: (_s, { urn, input }: { urn: string; input: PolicyUpdateInput }, ctx) => ctx.app.policies.update(ctx.principal, urn, input),
      deletePolicy: (_s, { urn }: { urn: string }, ctx) => ctx.app.policies.delete(ctx.principal, urn),
    },
    ActorFilter: {
      resolvedUsers: (a: { users?: string[] }, _a, ctx) => refs(ctx, a.users),
      resolvedGroups: (a: { groups?: string[] }, _a, ctx) => refs(ctx, a.groups),
    },
    PolicyMatchCriterionValue: {
      entity: (v: { value: string }, _a, ctx) => entityRef(ctx, v.value),
    },
  },
};

import { Incidents, type IncidentStatusInput, type RaiseIncidentInput, type UpdateIncidentInput } from '../../catalog/curation/incidents.ts';
import { curate, guarded, type Check } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's incident mutations (incident.graphql); the enums are the read side's (incident.ts). */
const typeDefs = /* GraphQL */ `
  input IncidentSourceInput {
    type: IncidentSourceType!
  }

  input IncidentStatusInput {
    state: IncidentState!
    stage: IncidentStage
    message: String
  }

  input UpdateIncidentStatusInput {
    state: IncidentState!
    stage: IncidentStage
    message: String
  }

  input RaiseIncidentInput {
    type: IncidentType!
    "A custom type of incident. Present only if type is 'CUSTOM'"
    customType: String
    title: String
    description: String
    resourceUrn: String
    resourceUrns: [String!]
    startedAt: Long
    "Accepted; an incident raised here is always MANUAL, as in DataHub."
    source: IncidentSourceInput
    status: IncidentStatusInput
    priority: IncidentPriority
    assigneeUrns: [String!]
  }

  input UpdateIncidentInput {
    title: String
    description: String
    "Accepted and ignored, as DataHub's resolver does."
    startedAt: Long
    status: IncidentStatusInput
    "Replaced; absent removes the priority (DataHub's REMOVE_IF_NULL)."
    priority: IncidentPriority
    "If given, at least one; the incident's entities replaced."
    resourceUrns: [String!]
    "Replaced; absent removes the assignees (DataHub's REMOVE_IF_NULL)."
    assigneeUrns: [String!]
  }

  extend type Mutation {
    "Raises an incident on one or more entities (EDIT_ENTITY or EDIT_ENTITY_INCIDENTS on each); returns its urn."
    raiseIncident(input: RaiseIncidentInput!): String
    "Changes an incident's state, stage and message (the privilege on the first entity it is raised on)."
    updateIncidentStatus(urn: String!, input: IncidentStatusInput!): Boolean
    "Changes an incident's details (EDIT_ENTITY_INCIDENTS on every entity it names and every new one)."
    updateIncident(urn: String!, input: UpdateIncidentInput!): Boolean
  }
`;

export const incidentMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      raiseIncident: (_s, { input }: { input: RaiseIncidentInput }, ctx) =>
        guarded(
          ctx,
          Incidents.resourcesOf(input).map((u): Check => ['editIncidents', u]),
          { n: 1, field: 'input' },
          () => ctx.app.incidents.raise(input, ctx.principal.actorUrn),
        ),
      updateIncidentStatus: async (_s, { urn, input }: { urn: string; input: IncidentStatusInput }, ctx) =>
        curate(ctx, [['editIncidents', await ctx.app.incidents.resourceOf(urn)]], { n: 1, field: 'input' }, () =>
          ctx.app.incidents.updateStatus(urn, input, ctx.principal.actorUrn),
        ),
      updateIncident: async (_s, { urn, input }: { urn: string; input: UpdateIncidentInput }, ctx) =>
        curate(
          ctx,
          (await ctx.app.incidents.resourcesToUpdate(urn, input)).map((u): Check => ['editIncidents', u]),
          { n: 1, field: 'input' },
          () => ctx.app.incidents.update(urn, input, ctx.principal.actorUrn),
        ),
    },
  },
};

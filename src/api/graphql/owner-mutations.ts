import type { OwnerInput } from '../../catalog/curation/curation.ts';
import type { ResourceRef } from '../../catalog/resource-refs.ts';
import { curate, resourceList, type Check } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's owner mutations (entity.graphql): argument and input types as DataHub declares them. */
const typeDefs = /* GraphQL */ `
  enum OwnerEntityType {
    CORP_USER
    CORP_GROUP
  }

  "DataHub's built-in ownership types; custom ones are ownershipType entities, named by ownershipTypeUrn."
  enum OwnershipType {
    TECHNICAL_OWNER
    BUSINESS_OWNER
    DATA_STEWARD
    NONE
    CUSTOM
    DATAOWNER @deprecated
    DEVELOPER @deprecated
    DELEGATE @deprecated
    PRODUCER @deprecated
    STAKEHOLDER @deprecated
    CONSUMER @deprecated
  }

  input OwnerInput {
    ownerUrn: String!
    ownerEntityType: OwnerEntityType!
    type: OwnershipType @deprecated
    ownershipTypeUrn: String
  }

  input AddOwnerInput {
    ownerUrn: String!
    ownerEntityType: OwnerEntityType!
    type: OwnershipType @deprecated
    ownershipTypeUrn: String
    resourceUrn: String!
  }

  input AddOwnersInput {
    owners: [OwnerInput!]!
    resourceUrn: String!
  }

  input BatchAddOwnersInput {
    owners: [OwnerInput!]!
    "Unused, as in DataHub: each owner names its own type."
    ownershipTypeUrn: String
    resources: [ResourceRefInput]!
  }

  input RemoveOwnerInput {
    ownerUrn: String!
    ownershipTypeUrn: String
    resourceUrn: String!
  }

  input BatchRemoveOwnersInput {
    ownerUrns: [String!]!
    ownershipTypeUrn: String
    resources: [ResourceRefInput]!
  }

  extend type Mutation {
    "Adds an owner to an entity; the same owner with the same ownership type is replaced, not repeated. True."
    addOwner(input: AddOwnerInput!): Boolean
    addOwners(input: AddOwnersInput!): Boolean
    "Adds owners to several entities: all are checked before any is written, in one transaction."
    batchAddOwners(input: BatchAddOwnersInput!): Boolean
    "Removes an owner (only as that ownership type when one is named)."
    removeOwner(input: RemoveOwnerInput!): Boolean
    batchRemoveOwners(input: BatchRemoveOwnersInput!): Boolean
  }
`;

const checksOf = (resources: ReadonlyArray<{ readonly resourceUrn: string } | null>): Check[] =>
  resources.flatMap((r): Check[] => (r === null ? [] : [['editOwners', r.resourceUrn]]));

export const ownerMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      addOwner: (_s, { input }: { input: OwnerInput & { resourceUrn: string } }, ctx) =>
        curate(ctx, checksOf([input]), { n: 1, field: 'input' }, () =>
          ctx.app.curation.addOwners([input], [{ resourceUrn: input.resourceUrn }], 'single', {
            mutation: 'addOwner',
            actor: ctx.principal.actorUrn,
          }),
        ),
      addOwners: (_s, { input }: { input: { owners: OwnerInput[]; resourceUrn: string } }, ctx) =>
        curate(ctx, checksOf([input]), { n: 1, field: 'input' }, () =>
          ctx.app.curation.addOwners(input.owners, [{ resourceUrn: input.resourceUrn }], 'single', {
            mutation: 'addOwners',
            actor: ctx.principal.actorUrn,
          }),
        ),
      batchAddOwners: (_s, { input }: { input: { owners: OwnerInput[]; resources: ReadonlyArray<ResourceRef | null> } }, ctx) =>
        curate(ctx, checksOf(input.resources), { n: input.resources.length, field: 'input.resources' }, () =>
          ctx.app.curation.addOwners(input.owners, resourceList(input.resources), 'batch', {
            mutation: 'batchAddOwners',
            actor: ctx.principal.actorUrn,
          }),
        ),
      removeOwner: (_s, { input }: { input: { ownerUrn: string; ownershipTypeUrn?: string | null; resourceUrn: string } }, ctx) =>
        curate(ctx, checksOf([input]), { n: 1, field: 'input' }, () =>
          ctx.app.curation.removeOwners([input.ownerUrn], input.ownershipTypeUrn ?? null, [{ resourceUrn: input.resourceUrn }], 'single', {
            mutation: 'removeOwner',
            actor: ctx.principal.actorUrn,
          }),
        ),
      batchRemoveOwners: (
        _s,
        { input }: { input: { ownerUrns: string[]; ownershipTypeUrn?: string | null; resources: ReadonlyArray<ResourceRef | null> } },
        ctx,
      ) =>
        curate(ctx, checksOf(input.resources), { n: input.resources.length, field: 'input.resources' }, () =>
          ctx.app.curation.removeOwners(input.ownerUrns, input.ownershipTypeUrn ?? null, resourceList(input.resources), 'batch', {
            mutation: 'batchRemoveOwners',
            actor: ctx.principal.actorUrn,
          }),
        ),
    },
  },
};

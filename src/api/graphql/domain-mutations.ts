import type { CreateDomainInput } from '../../catalog/curation/domains.ts';
import type { ResourceRef } from '../../catalog/resource-refs.ts';
import { curate, guarded, type Check } from './curation.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's domain mutations (entity.graphql): creating, moving and deleting domains, and assigning them. */
const typeDefs = /* GraphQL */ `
  input CreateDomainInput {
    "The domain's id (its urn is urn:li:domain:<id>); a random one when absent."
    id: String
    name: String!
    description: String
    parentDomain: String
    owners: [OwnerInput!]
  }

  input MoveDomainInput {
    "The new parent domain; null moves the domain to the root."
    parentDomain: String
    resourceUrn: String!
  }

  input BatchSetDomainInput {
    "The domain to set, or null to remove the domain of every resource."
    domainUrn: String
    resources: [ResourceRefInput!]!
  }

  extend type Mutation {
    "Creates a domain (CREATE_DOMAINS or MANAGE_DOMAINS); its name must be unique among its siblings. Returns its urn."
    createDomain(input: CreateDomainInput!): String
    "Moves a domain under another one, or to the root (MANAGE_DOMAINS)."
    moveDomain(input: MoveDomainInput!): Boolean
    "Deletes a domain without child domains (MANAGE_DOMAINS, or EDIT_ENTITY on it)."
    deleteDomain(urn: String!): Boolean
    "Makes the domain the entity's one domain (both must exist); true."
    setDomain(entityUrn: String!, domainUrn: String!): Boolean
    "Sets (or with a null domainUrn removes) the domain of several entities, all or nothing."
    batchSetDomain(input: BatchSetDomainInput!): Boolean
    "Removes the entity's domain; true, also when it had none."
    unsetDomain(entityUrn: String!): Boolean
  }
`;

const edit = (urn: string): Check => ['editDomains', urn];

export const domainMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      createDomain: (_s, { input }: { input: CreateDomainInput }, ctx) =>
        guarded(ctx, [['createDomain']], { n: 2, field: 'input' }, () => ctx.app.domains.create(input, ctx.principal.actorUrn)),
      moveDomain: (_s, { input }: { input: { parentDomain?: string | null; resourceUrn: string } }, ctx) =>
        curate(ctx, [['manageDomains']], { n: 1, field: 'input' }, () =>
          ctx.app.domains.move(input.resourceUrn, input.parentDomain ?? null, ctx.principal.actorUrn),
        ),
      deleteDomain: (_s, { urn }: { urn: string }, ctx) =>
        curate(ctx, [['deleteDomainEntity', urn, ['manageDomains']]], { n: 0, field: 'urn' }, async () => {
          await ctx.app.domains.checkDeletable(urn);
          await ctx.app.catalog.delete({ urn });
        }),
      setDomain: (_s, { entityUrn, domainUrn }: { entityUrn: string; domainUrn: string }, ctx) => {
        const named = `Failed to add Entity ${entityUrn} to Domain ${domainUrn}.`;
        return curate(ctx, [edit(entityUrn)], { n: 1, field: 'entityUrn' }, () =>
          ctx.app.curation.setDomain({ urn: domainUrn, missing: `${named} Domain does not exist.` }, [{ resourceUrn: entityUrn }], {
            mutation: 'setDomain',
            actor: ctx.principal.actorUrn,
            missing: () => `${named} Entity does not exist.`,
          }),
        );
      },
      unsetDomain: (_s, { entityUrn }: { entityUrn: string }, ctx) =>
        curate(ctx, [edit(entityUrn)], { n: 1, field: 'entityUrn' }, () =>
          ctx.app.curation.setDomain(null, [{ resourceUrn: entityUrn }], {
            mutation: 'unsetDomain',
            actor: ctx.principal.actorUrn,
            missing: (urn) => `Failed to unset Domains for resource with entity urn ${urn}. Entity does not exist.`,
          }),
        ),
      batchSetDomain: (_s, { input }: { input: { domainUrn?: string | null; resources: readonly ResourceRef[] } }, ctx) =>
        curate(
          ctx,
          input.resources.map((r) => edit(r.resourceUrn)),
          { n: input.resources.length, field: 'input.resources' },
          () =>
            ctx.app.curation.setDomain(
              input.domainUrn == null
                ? null
                : { urn: input.domainUrn, missing: `Failed to validate Domain with urn ${input.domainUrn}. Urn does not exist.` },
              input.resources,
              { mutation: 'batchSetDomain', actor: ctx.principal.actorUrn },
            ),
        ),
    },
  },
};

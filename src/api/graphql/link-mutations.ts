import { addLink, removeLink, updateLink, upsertLink, type LinkInput } from '../../catalog/curation/links.ts';
import { curate } from './curation.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's link mutations (entity.graphql): an entity's institutional memory. */
const typeDefs = /* GraphQL */ `
  input LinkSettingsInput {
    "Whether the UI shows the link in the asset's preview."
    showInAssetPreview: Boolean
  }

  input AddLinkInput {
    linkUrl: String!
    "A label to attach to the link"
    label: String!
    resourceUrn: String!
    settings: LinkSettingsInput
  }

  input UpdateLinkInput {
    currentUrl: String!
    currentLabel: String!
    linkUrl: String!
    label: String!
    settings: LinkSettingsInput
    resourceUrn: String!
  }

  input UpsertLinkInput {
    linkUrl: String!
    label: String!
    resourceUrn: String!
    settings: LinkSettingsInput
  }

  input RemoveLinkInput {
    linkUrl: String!
    "Removes only the link with this label too; without it, every link with the url."
    label: String
    resourceUrn: String!
  }

  extend type Mutation {
    "Adds a link (http, https, ftp or mailto) to an entity; the same url and label twice is refused. True."
    addLink(input: AddLinkInput!): Boolean
    "Replaces the link with the current url and label, keeping when it was created."
    updateLink(input: UpdateLinkInput!): Boolean
    "Updates the link with this url and label, or adds it when there is none."
    upsertLink(input: UpsertLinkInput!): Boolean
    removeLink(input: RemoveLinkInput!): Boolean
  }
`;

type AddInput = { linkUrl: string; label: string; resourceUrn: string; settings?: LinkInput['settings'] };

const editLinks = (ctx: GraphqlContext, resourceUrn: string, urls: string[], change: Parameters<GraphqlContext['app']['curation']['editLinks']>[2]) =>
  curate(ctx, [['editLinks', resourceUrn]], { n: 1, field: 'input' }, () =>
    ctx.app.curation.editLinks(resourceUrn, urls, change, { mutation: 'links', actor: ctx.principal.actorUrn }),
  );

export const linkMutationsModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Mutation: {
      addLink: (_s, { input }: { input: AddInput }, ctx) =>
        editLinks(ctx, input.resourceUrn, [input.linkUrl], (current, stamp) =>
          addLink(current, { url: input.linkUrl, label: input.label, settings: input.settings }, stamp),
        ),
      updateLink: (_s, { input }: { input: AddInput & { currentUrl: string; currentLabel: string } }, ctx) =>
        editLinks(ctx, input.resourceUrn, [input.currentUrl, input.linkUrl], (current, stamp) =>
          updateLink(
            current,
            { url: input.currentUrl, label: input.currentLabel },
            { url: input.linkUrl, label: input.label, settings: input.settings },
            stamp,
          ),
        ),
      upsertLink: (_s, { input }: { input: AddInput }, ctx) =>
        editLinks(ctx, input.resourceUrn, [input.linkUrl], (current, stamp) =>
          upsertLink(current, { url: input.linkUrl, label: input.label, settings: input.settings }, stamp),
        ),
      removeLink: (_s, { input }: { input: { linkUrl: string; label?: string | null; resourceUrn: string } }, ctx) =>
        editLinks(ctx, input.resourceUrn, [input.linkUrl], (current) => removeLink(current, input.linkUrl, input.label ?? null)),
    },
  },
};

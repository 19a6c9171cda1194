import type { Json } from '../../storage/store.ts';
import { str } from './entity-fields.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * Small aspects DataHub's GraphQL shows as they are: a chart's or dataset's embed, a dataset's siblings and view
 * definition, a user's or group's origin. Given to the types holding the aspect by entity-aspect-fields.ts.
 */
const typeDefs = /* GraphQL */ `
  type Embed {
    renderUrl: String
  }

  type SiblingProperties {
    isPrimary: Boolean
    siblings: [Entity]
  }

  type ViewProperties {
    materialized: Boolean!
    logic: String!
    formattedLogic: String
    language: String!
  }

  enum OriginType {
    NATIVE
    EXTERNAL
    UNKNOWN
  }

  type Origin {
    type: OriginType!
    externalType: String
  }
`;

export const embed = (_ctx: GraphqlContext, v: Json | undefined) => (v ? { renderUrl: str(v.renderUrl) } : null);

export async function siblings(ctx: GraphqlContext, v: Json | undefined) {
  if (!v) return null;
  const urns = Array.isArray(v.siblings) ? v.siblings : [];
  return { isPrimary: v.primary === true, siblings: await Promise.all(urns.map((u) => entityRef(ctx, str(u)))) };
}

export const viewProperties = (_ctx: GraphqlContext, v: Json | undefined) =>
  v
    ? {
        materialized: v.materialized === true,
        logic: str(v.viewLogic) ?? '',
        formattedLogic: str(v.formattedViewLogic),
        language: str(v.viewLanguage) ?? '',
      }
    : null;

const ORIGIN_TYPES = new Set(['NATIVE', 'EXTERNAL']);
export const origin = (_ctx: GraphqlContext, v: Json | undefined) =>
  v ? { type: ORIGIN_TYPES.has(String(v.type)) ? v.type : 'UNKNOWN', externalType: str(v.externalType) } : null;

export const aspectValuesModule: GraphqlModule = { typeDefs, resolvers: {} };

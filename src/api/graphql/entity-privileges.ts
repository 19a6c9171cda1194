import type { Operation } from '../../auth/operations.ts';
import type { GraphqlModule, Resolver } from './schema.ts';

/**
 * DataHub's EntityPrivileges (auth.graphql), the part its UI reads to decide which edit controls to offer: each field
 * is whether the caller may perform that kind of change on this entity, decided by the same rule the mutation applies
 * (auth/operations.ts), so a control offered is a change allowed.
 */
const FIELDS: Readonly<Record<string, Operation>> = {
  canEditTags: 'editTags',
  canEditGlossaryTerms: 'editTerms',
  canEditDescription: 'editDescription',
  canEditOwners: 'editOwners',
  canEditDomains: 'editDomains',
  canEditDeprecation: 'updateDeprecation',
  canEditSchemaFieldTags: 'editFieldTags',
  canEditSchemaFieldGlossaryTerms: 'editFieldTerms',
  canEditSchemaFieldDescription: 'editFieldDescription',
};

/** The types DataHub gives a `privileges` field that Almanac has. */
const TYPES = [
  'Dataset',
  'GlossaryTerm',
  'GlossaryNode',
  'Container',
  'CorpUser',
  'CorpGroup',
  'Dashboard',
  'Chart',
  'DataFlow',
  'DataJob',
  'MLModel',
  'MLModelGroup',
  'MLFeature',
  'MLPrimaryKey',
  'MLFeatureTable',
  'Domain',
  'DataProduct',
  'Application',
  'BusinessAttribute',
];

const typeDefs = /* GraphQL */ `
  "What the caller may change on an entity (DataHub's EntityPrivileges; the fields Almanac decides)."
  type EntityPrivileges {
    ${Object.keys(FIELDS).join(': Boolean\n    ')}: Boolean
  }

  ${TYPES.map((t) => `extend type ${t} {\n    "What the caller may change on it."\n    privileges: EntityPrivileges\n  }`).join('\n  ')}
`;

const privileges: Resolver = (e: { urn: string }) => ({ urn: e.urn });

export const entityPrivilegesModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    ...Object.fromEntries(TYPES.map((t) => [t, { privileges }])),
    EntityPrivileges: Object.fromEntries(
      Object.entries(FIELDS).map(([field, operation]) => [
        field,
        ((p: { urn: string }, _a, ctx) => ctx.app.authorizer.allows(ctx.principal, operation, p.urn)) as Resolver,
      ]),
    ),
  },
};

import { gql } from './api.ts';

/**
 * The curation mutations, as DataHub's own UI sends them (same names, same inputs), so the console, scripts and
 * DataHub's clients share one path and one set of privileges. A field of a dataset is a sub-resource.
 */
export interface Target {
  readonly urn: string;
  /** A dataset field's path, for edits of that field. */
  readonly fieldPath?: string;
}

const sub = (t: Target) => ({ resourceUrn: t.urn, ...(t.fieldPath ? { subResourceType: 'DATASET_FIELD', subResource: t.fieldPath } : {}) });

/** The types whose description DataHub's UI edits with update<Type>(urn, input: { editableProperties }): its updateDescription refuses them. */
const UPDATED_BY_TYPE: Readonly<Record<string, string>> = { chart: 'Chart', dashboard: 'Dashboard', dataFlow: 'DataFlow', dataJob: 'DataJob' };

export const updateDescription = (t: Target, description: string) => {
  const type = t.fieldPath ? undefined : UPDATED_BY_TYPE[t.urn.split(':')[2] ?? ''];
  if (type)
    return gql(`mutation update${type}($urn: String!, $input: ${type}UpdateInput!) { update${type}(urn: $urn, input: $input) { urn } }`, {
      urn: t.urn,
      input: { editableProperties: { description } },
    });
  return gql(`mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`, {
    input: { ...sub(t), description },
  });
};

export const addTag = (t: Target, tagUrn: string) =>
  gql(`mutation addTags($input: AddTagsInput!) { addTags(input: $input) }`, { input: { ...sub(t), tagUrns: [tagUrn] } });

export const removeTag = (t: Target, tagUrn: string) =>
  gql(`mutation removeTag($input: TagAssociationInput!) { removeTag(input: $input) }`, { input: { ...sub(t), tagUrn } });

export const addTerm = (t: Target, termUrn: string) =>
  gql(`mutation addTerms($input: AddTermsInput!) { addTerms(input: $input) }`, { input: { ...sub(t), termUrns: [termUrn] } });

export const removeTerm = (t: Target, termUrn: string) =>
  gql(`mutation removeTerm($input: TermAssociationInput!) { removeTerm(input: $input) }`, { input: { ...sub(t), termUrn } });

export const addOwner = (urn: string, ownerUrn: string, ownershipTypeUrn: string) =>
  gql(`mutation addOwners($input: AddOwnersInput!) { addOwners(input: $input) }`, {
    input: {
      resourceUrn: urn,
      owners: [{ ownerUrn, ownerEntityType: ownerUrn.startsWith('urn:li:corpGroup:') ? 'CORP_GROUP' : 'CORP_USER', ownershipTypeUrn }],
    },
  });

export const removeOwner = (urn: string, ownerUrn: string, ownershipTypeUrn: string | null) =>
  gql(`mutation removeOwner($input: RemoveOwnerInput!) { removeOwner(input: $input) }`, {
    input: { resourceUrn: urn, ownerUrn, ...(ownershipTypeUrn ? { ownershipTypeUrn } : {}) },
  });

export const setDomain = (urn: string, domainUrn: string) =>
  gql(`mutation setDomain($entityUrn: String!, $domainUrn: String!) { setDomain(entityUrn: $entityUrn, domainUrn: $domainUrn) }`, {
    entityUrn: urn,
    domainUrn,
  });

export const unsetDomain = (urn: string) =>
  gql(`mutation unsetDomain($entityUrn: String!) { unsetDomain(entityUrn: $entityUrn) }`, { entityUrn: urn });

/** DataHub's built-in ownership types, as its UI offers them. */
export const OWNERSHIP_TYPES: ReadonlyArray<readonly [urn: string, label: string]> = [
  ['urn:li:ownershipType:__system__technical_owner', 'Technical owner'],
  ['urn:li:ownershipType:__system__business_owner', 'Business owner'],
  ['urn:li:ownershipType:__system__data_steward', 'Data steward'],
  ['urn:li:ownershipType:__system__none', 'None'],
];

/** An owner's ownership type urn: the one stored, else the system one its legacy type names (DataHub's mapOwnershipTypeToEntity). */
export const ownershipTypeUrn = (typeUrn: string | null | undefined, legacy: string | null | undefined): string | null =>
  typeUrn ?? (legacy ? `urn:li:ownershipType:__system__${legacy.toLowerCase()}` : null);

export const ownershipTypeLabel = (urn: string | null): string =>
  OWNERSHIP_TYPES.find(([u]) => u === urn)?.[1] ?? (urn ? urn.slice(urn.lastIndexOf(':') + 1) : '');

/** What the caller may change on an entity: DataHub's EntityPrivileges, as the server decides them for this caller. */
export interface EditPrivileges {
  readonly canEditDescription: boolean;
  readonly canEditTags: boolean;
  readonly canEditGlossaryTerms: boolean;
  readonly canEditOwners: boolean;
  readonly canEditDomains: boolean;
  readonly canEditDeprecation: boolean;
  readonly canEditSchemaFieldTags: boolean;
  readonly canEditSchemaFieldGlossaryTerms: boolean;
  readonly canEditSchemaFieldDescription: boolean;
}

/** The GraphQL selection of those privileges, on an entity type that has them. */
export const PRIVILEGES_FIELDS = `fragment edits on EntityPrivileges {
  canEditDescription canEditTags canEditGlossaryTerms canEditOwners canEditDomains canEditDeprecation
  canEditSchemaFieldTags canEditSchemaFieldGlossaryTerms canEditSchemaFieldDescription
}`;

/** Nothing may be changed: until the privileges are read, and on a type without them. */
export const NO_EDITS: EditPrivileges = {
  canEditDescription: false,
  canEditTags: false,
  canEditGlossaryTerms: false,
  canEditOwners: false,
  canEditDomains: false,
  canEditDeprecation: false,
  canEditSchemaFieldTags: false,
  canEditSchemaFieldGlossaryTerms: false,
  canEditSchemaFieldDescription: false,
};

/** The server's answer, each missing or null field taken as "no". */
export const editsOf = (p: Partial<Record<keyof EditPrivileges, boolean | null>> | null | undefined): EditPrivileges =>
  Object.fromEntries(Object.keys(NO_EDITS).map((k) => [k, p?.[k as keyof EditPrivileges] === true])) as unknown as EditPrivileges;

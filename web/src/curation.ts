import { gql } from './api.ts';
import type { Me } from './me.ts';

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

export const updateDescription = (t: Target, description: string) =>
  gql(`mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`, { input: { ...sub(t), description } });

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

/**
 * What the caller may change on an entity, with DataHub's EntityPrivileges names. From the caller's privileges that
 * need no resource (`me { privileges }`): EDIT_ENTITY, or the one DataHub's resolver names for that kind of change.
 */
export interface EditPrivileges {
  readonly canEditDescription: boolean;
  readonly canEditTags: boolean;
  readonly canEditGlossaryTerms: boolean;
  readonly canEditOwners: boolean;
  readonly canEditDomains: boolean;
  readonly canEditSchemaFieldTags: boolean;
  readonly canEditSchemaFieldGlossaryTerms: boolean;
  readonly canEditSchemaFieldDescription: boolean;
}

export function editPrivileges(me: Me | null): EditPrivileges {
  const may = (p: string) => !!me && (me.privileges.includes('EDIT_ENTITY') || me.privileges.includes(p));
  return {
    canEditDescription: may('EDIT_ENTITY_DOCS'),
    canEditTags: may('EDIT_ENTITY_TAGS'),
    canEditGlossaryTerms: may('EDIT_ENTITY_GLOSSARY_TERMS'),
    canEditOwners: may('EDIT_ENTITY_OWNERS'),
    canEditDomains: may('EDIT_ENTITY_DOMAINS'),
    canEditSchemaFieldTags: may('EDIT_DATASET_COL_TAGS'),
    canEditSchemaFieldGlossaryTerms: may('EDIT_DATASET_COL_GLOSSARY_TERMS'),
    canEditSchemaFieldDescription: may('EDIT_DATASET_COL_DESCRIPTION'),
  };
}

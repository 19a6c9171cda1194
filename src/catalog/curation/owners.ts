import { badRequest } from '../errors.ts';
import { parseUrn } from '../urn.ts';
import type { Json } from '../../storage/store.ts';

/** DataHub's OwnerEntityType. */
export type OwnerEntityType = 'CORP_USER' | 'CORP_GROUP';

/** DataHub's OwnerInput: who owns, and how (a deprecated type, a custom ownership type urn, or both). */
export interface OwnerInput {
  readonly ownerUrn: string;
  readonly ownerEntityType: OwnerEntityType;
  readonly type?: string | null;
  readonly ownershipTypeUrn?: string | null;
}

/** The ownershipType entity DataHub maps a built-in ownership type to (OwnerServiceUtils.mapOwnershipTypeToEntity). */
export const systemOwnershipType = (type: string): string => `urn:li:ownershipType:__system__${type.toLowerCase()}`;

/** DataHub's built-in ownership types (OwnershipType), which DataHub bootstraps as ownershipType entities. */
const BUILT_IN_TYPES = new Set(
  [
    'TECHNICAL_OWNER',
    'BUSINESS_OWNER',
    'DATA_STEWARD',
    'NONE',
    'CUSTOM',
    'DATAOWNER',
    'DEVELOPER',
    'DELEGATE',
    'PRODUCER',
    'STAKEHOLDER',
    'CONSUMER',
  ].map(systemOwnershipType),
);

/** The urns an owner input asks to exist: the owner and its custom ownership type. */
export const ownerUrnsToCheck = (o: OwnerInput): string[] => [o.ownerUrn, ...(o.ownershipTypeUrn != null ? [o.ownershipTypeUrn] : [])];

/** DataHub's OwnerUtils.validateOwner, in its order and with its messages; `exists` answers from one read. */
export function checkOwner(o: OwnerInput, exists: (urn: string) => boolean): void {
  const ownerType = parseUrn(o.ownerUrn).entityType;
  if (o.ownerEntityType === 'CORP_GROUP' && ownerType !== 'corpGroup') {
    throw badRequest(`Failed to change ownership for resource(s). Expected a corp group urn, found ${o.ownerUrn}`);
  }
  if (o.ownerEntityType === 'CORP_USER' && ownerType !== 'corpuser') {
    throw badRequest(`Failed to change ownership for resource(s). Expected a corp user urn, found ${o.ownerUrn}.`);
  }
  if (!exists(o.ownerUrn)) throw badRequest(`Failed to change ownership for resource(s). Owner with urn ${o.ownerUrn} does not exist.`);
  // The built-in types exist in every DataHub (its bootstrap writes them); Almanac does not store them.
  if (o.ownershipTypeUrn != null && !BUILT_IN_TYPES.has(o.ownershipTypeUrn) && !exists(o.ownershipTypeUrn)) {
    throw badRequest(`Failed to change ownership for resource(s). Custom Ownership type with urn ${o.ownershipTypeUrn} does not exist.`);
  }
  if (o.type == null && o.ownershipTypeUrn == null) {
    throw badRequest('Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.');
  }
}

const owners = (v: Json | undefined): Json[] =>
  Array.isArray(v?.owners) ? (v.owners as Json[]).filter((o) => typeof o === 'object' && o !== null) : [];

/** DataHub's OwnerServiceUtils.isOwnerEqual: the same owner, and the same ownership type when one is named. */
function sameOwner(o: Json, ownerUrn: string, typeUrn: string | null): boolean {
  if (o.owner !== ownerUrn) return false;
  if (typeUrn === null) return true;
  if (typeof o.typeUrn === 'string') return o.typeUrn === typeUrn;
  return systemOwnershipType(typeof o.type === 'string' ? o.type : 'NONE') === typeUrn;
}

/** The ownership aspect with each owner added (replacing the same owner of the same type), stamped by the caller. */
export function addOwners(current: Json | undefined, inputs: readonly OwnerInput[], stamp: Json): Json {
  let list = owners(current);
  for (const o of inputs) {
    const type = o.type ?? 'NONE';
    const typeUrn = o.ownershipTypeUrn ?? systemOwnershipType(type);
    list = list.filter((x) => !sameOwner(x, o.ownerUrn, typeUrn));
    list.push({ owner: o.ownerUrn, type, typeUrn, source: { type: 'MANUAL' } });
  }
  return { ...current, owners: list, lastModified: stamp };
}

/** The ownership aspect without these owners (of that ownership type only, when one is named). */
export function removeOwners(current: Json | undefined, ownerUrns: readonly string[], typeUrn: string | null, stamp: Json): Json {
  const list = owners(current).filter((x) => !ownerUrns.some((u) => sameOwner(x, u, typeUrn)));
  return { ...current, owners: list, lastModified: stamp };
}

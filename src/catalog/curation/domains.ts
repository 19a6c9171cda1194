import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest, conflict } from '../errors.ts';
import type { Proposal } from '../proposals.ts';
import type { EntitySearch } from '../search/entity-search.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts, ReadParts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf } from './aspect-edits.ts';
import { isAncestorOrSelf, siblingNamed, withParent, type Hierarchy } from './hierarchy.ts';
import { addOwners, checkOwner, ownerUrnsToCheck, type OwnerInput } from './owners.ts';

const DOMAIN = 'domain';
const PROPERTIES = 'domainProperties';
export const DOMAINS: Hierarchy & { readonly name: string } = { entityType: DOMAIN, aspect: PROPERTIES, parent: 'parentDomain', name: 'name' };

export interface CreateDomainInput {
  readonly id?: string | null;
  readonly name: string;
  readonly description?: string | null;
  readonly parentDomain?: string | null;
  readonly owners?: readonly OwnerInput[] | null;
}

const UI_SOURCE: Json = { properties: { appSource: 'ui' } };

/**
 * DataHub's domain administration (CreateDomainResolver, MoveDomainResolver, DeleteDomainResolver): a domain's name is
 * unique among its siblings, a domain never moves under itself, and one with child domains is not deleted. Creation
 * is an ingest (the key aspect, the properties and the owners in one transaction); a move is a locked
 * read-modify-write of the properties.
 */
export class Domains {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'> & Pick<ReadParts, 'relationships'>,
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    private readonly edits: AspectEdits,
  ) {}

  /** createDomain: the new domain's urn (a random id unless one is given). */
  async create(input: CreateDomainInput, actor: string): Promise<string> {
    const parent = input.parentDomain != null ? parseUrn(input.parentDomain).raw : null;
    const urn = parseUrn(`urn:li:domain:${input.id ?? crypto.randomUUID()}`).raw;
    const owners = input.owners ?? [];
    const found = await this.ports.aspects.existing([urn, ...(parent ? [parent] : []), ...owners.flatMap(ownerUrnsToCheck)]);
    if (found.has(urn)) throw badRequest('This Domain already exists!');
    if (parent !== null && !found.has(parent)) throw badRequest('Parent Domain does not exist!');
    if (await siblingNamed(this.ports.aspects, this.search, DOMAINS, input.name, parent)) {
      throw conflict(`"${input.name}" already exists in this domain. Please pick a unique name.`);
    }
    for (const o of owners) checkOwner(o, (u) => found.has(u));
    const now = this.edits.now();
    const stamp = auditStampOf(actor, now);
    const properties: Json = {
      name: input.name,
      ...(input.description != null ? { description: input.description } : {}),
      created: stamp,
      ...(parent !== null ? { parentDomain: parent } : {}),
    };
    const proposal = (aspectName: string, value: Json): Proposal => ({
      entityType: DOMAIN,
      urn,
      changeType: 'UPSERT',
      aspectName,
      value,
      systemMetadata: UI_SOURCE,
    });
    await this.catalog.ingest(
      [proposal(PROPERTIES, properties), ...(owners.length > 0 ? [proposal('ownership', addOwners(undefined, owners, stamp))] : [])],
      actor,
    );
    return urn;
  }

  /** moveDomain: under another domain, or to the root (parent null). */
  async move(resourceUrn: string, parentDomain: string | null, actor: string): Promise<void> {
    const urn = parseUrn(resourceUrn);
    const parent = parentDomain !== null ? parseUrn(parentDomain) : null;
    if (urn.entityType !== DOMAIN) throw badRequest('Resource is not a domain.');
    const properties = (await this.ports.aspects.getAspect(urn.raw, PROPERTIES))?.value;
    if (!properties) throw badRequest('Domain properties do not exist.');
    if (parent !== null) {
      if (parent.entityType !== DOMAIN) throw badRequest('Parent entity is not a domain.');
      if (!(await this.ports.aspects.existing([parent.raw])).has(parent.raw)) throw badRequest('Parent entity does not exist.');
      if (await isAncestorOrSelf(this.ports.aspects, DOMAINS, urn.raw, parent.raw))
        throw badRequest('Cannot move a domain under one of its own descendants.');
    }
    const name = typeof properties.name === 'string' ? properties.name : '';
    if (await siblingNamed(this.ports.aspects, this.search, DOMAINS, name, parent?.raw ?? null, urn.raw)) {
      throw conflict(`"${name}" already exists in the destination domain. Please pick a unique name.`);
    }
    const now = this.edits.now();
    await this.edits.apply(
      [
        {
          urn: urn.raw,
          entityType: DOMAIN,
          aspect: PROPERTIES,
          update: (current) => withParent(current ?? properties, DOMAINS, parent?.raw ?? null),
        },
      ],
      actor,
      now,
      () => 'Domain properties do not exist.',
    );
  }

  /** deleteDomain's check: a domain with child domains stays (DataHub's message). */
  async checkDeletable(domainUrn: string): Promise<void> {
    const urn = parseUrn(domainUrn).raw;
    const children = await this.ports.relationships.relatedEntities({ urn, direction: 'INCOMING', types: ['IsPartOf'], start: 0, count: 1 });
    if (children.relationships.some((r) => parseUrn(r.source).entityType === DOMAIN)) {
      throw badRequest(`Cannot delete domain ${urn} which has child domains`);
    }
  }
}

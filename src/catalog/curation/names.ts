import { badRequest, conflict } from '../errors.ts';
import type { EntitySearch } from '../search/entity-search.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import type { AspectEdits } from './aspect-edits.ts';
import { DOMAINS } from './domains.ts';
import { siblingNamed } from './hierarchy.ts';

/** Where each entity type DataHub's updateName renames keeps its name, and DataHub's words for a missing aspect. */
const NAMED = {
  glossaryTerm: { aspect: 'glossaryTermInfo', field: 'name', missing: 'Glossary Term does not exist' },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'name', missing: 'Glossary Node does not exist' },
  domain: { aspect: 'domainProperties', field: 'name', missing: 'Domain does not exist' },
  corpGroup: { aspect: 'corpGroupInfo', field: 'displayName', missing: 'Group does not exist' },
  dataProduct: { aspect: 'dataProductProperties', field: 'name', missing: 'Data Product does not exist' },
} as const;

export type NamedType = keyof typeof NAMED;

/** DataHub's default for a group with no info yet (UpdateNameResolver.createDefaultCorpGroupInfo). */
const EMPTY_GROUP_INFO: Json = { admins: [], members: [], groups: [] };

/**
 * DataHub's updateName (UpdateNameResolver): renames a glossary term or node, a domain (its name unique among its
 * siblings), a group (its display name) or a data product, as a locked read-modify-write of the aspect holding the
 * name. Who may rename depends on the type; the GraphQL resolver checks that before calling.
 */
export class Names {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly search: EntitySearch,
    private readonly edits: AspectEdits,
  ) {}

  /** The type of an entity updateName renames; refuses any other with DataHub's message. */
  typeOf(urn: string): NamedType {
    const type = parseUrn(urn).entityType;
    if (!Object.hasOwn(NAMED, type)) throw badRequest(`Failed to update name. Unsupported resource type ${urn} provided.`);
    return type as NamedType;
  }

  async rename(urn: string, name: string, actor: string): Promise<void> {
    const target = parseUrn(urn).raw;
    const type = this.typeOf(target);
    if (name.trim() === '') throw badRequest("Field 'name' must not be empty");
    if (!(await this.ports.aspects.existing([target])).has(target)) throw badRequest(`Failed to update ${target}. ${target} does not exist.`);
    const { aspect, field, missing } = NAMED[type];
    if (type === 'domain') await this.checkDomainName(target, name);
    await this.edits.apply(
      [
        {
          urn: target,
          entityType: type,
          aspect,
          update: (current) => {
            const value = current ?? (type === 'corpGroup' ? EMPTY_GROUP_INFO : undefined);
            if (value === undefined) throw badRequest(missing);
            return { ...value, [field]: name };
          },
        },
      ],
      actor,
      this.edits.now(),
      () => missing,
    );
  }

  /** DomainUtils.hasNameConflict: another domain under the same parent already has the name. */
  private async checkDomainName(urn: string, name: string): Promise<void> {
    const properties = (await this.ports.aspects.getAspect(urn, 'domainProperties'))?.value;
    const parent = typeof properties?.parentDomain === 'string' ? properties.parentDomain : null;
    if (await siblingNamed(this.ports.aspects, this.search, DOMAINS, name, parent, urn)) {
      throw conflict(`"${name}" already exists in this domain. Please pick a unique name.`);
    }
  }
}

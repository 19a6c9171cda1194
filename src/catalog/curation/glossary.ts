import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest } from '../errors.ts';
import type { EntitySearch } from '../search/entity-search.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf } from './aspect-edits.ts';
import { isAncestorOrSelf, parentOf, siblingNamed, withParent, type Hierarchy } from './hierarchy.ts';
import { addOwners } from './owners.ts';

/** DataHub's CreateGlossaryEntityInput. */
export interface CreateGlossaryEntityInput {
  readonly id?: string | null;
  readonly name: string;
  readonly description?: string | null;
  readonly parentNode?: string | null;
}

type Kind = 'glossaryTerm' | 'glossaryNode';

const TREES: Readonly<Record<Kind, Hierarchy & { readonly name: string; readonly noun: string }>> = {
  glossaryTerm: { entityType: 'glossaryTerm', aspect: 'glossaryTermInfo', parent: 'parentNode', name: 'name', noun: 'Glossary Term' },
  glossaryNode: { entityType: 'glossaryNode', aspect: 'glossaryNodeInfo', parent: 'parentNode', name: 'name', noun: 'Glossary Node' },
};

const isKind = (type: string): type is Kind => type === 'glossaryTerm' || type === 'glossaryNode';

/**
 * DataHub's business glossary administration (CreateGlossaryTermResolver, CreateGlossaryNodeResolver,
 * UpdateParentNodeResolver): a term's name is unique among the terms of its node, the creator becomes a technical
 * owner, and a node never moves under itself. Creation is an ingest (key, info and ownership in one transaction).
 */
export class Glossary {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly search: EntitySearch,
    private readonly edits: AspectEdits,
  ) {}

  /** The node a term or node is filed under (null at the root): whose children's managers may change it. */
  parentOf(urn: string): Promise<string | null> {
    const type = parseUrn(urn).entityType;
    return isKind(type) ? parentOf(this.ports.aspects, TREES[type], urn) : Promise.resolve(null);
  }

  /** createGlossaryTerm and createGlossaryNode: the new entity's urn (a random id unless one is given). */
  async create(kind: Kind, input: CreateGlossaryEntityInput, actor: string): Promise<string> {
    const tree = TREES[kind];
    const parent = input.parentNode != null ? parseUrn(input.parentNode) : null;
    if (parent !== null && parent.entityType !== 'glossaryNode')
      throw badRequest(`Failed to create ${tree.noun}. ${parent.raw} is not a glossaryNode.`);
    // Only terms must have a name of their own at their level, as in DataHub.
    if (kind === 'glossaryTerm' && (await siblingNamed(this.ports.aspects, this.search, tree, input.name, parent?.raw ?? null))) {
      throw badRequest('Glossary Term with this name already exists at this level of the Business Glossary');
    }
    const urn = parseUrn(`urn:li:${kind}:${input.id ?? crypto.randomUUID()}`).raw;
    const found = await this.ports.aspects.existing([urn, ...(parent ? [parent.raw] : [])]);
    if (found.has(urn)) throw badRequest(`This ${tree.noun} already exists!`);
    if (parent !== null && !found.has(parent.raw)) throw badRequest(`Failed to create ${tree.noun}. Parent node ${parent.raw} does not exist.`);
    const stamp = auditStampOf(actor, this.edits.now());
    const info: Json = {
      name: input.name,
      definition: input.description ?? '',
      ...(kind === 'glossaryTerm' ? { termSource: 'INTERNAL' } : {}),
      ...(parent !== null ? { parentNode: parent.raw } : {}),
    };
    const creator = addOwners(undefined, [{ ownerUrn: actor, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }], stamp);
    const systemMetadata: Json = { properties: { appSource: 'ui' } };
    await this.catalog.ingest(
      [
        { entityType: kind, urn, changeType: 'UPSERT', aspectName: tree.aspect, value: info, systemMetadata },
        { entityType: kind, urn, changeType: 'UPSERT', aspectName: 'ownership', value: creator, systemMetadata },
      ],
      actor,
    );
    return urn;
  }

  /** updateParentNode: files a term or node under another node, or at the root (null). */
  async updateParent(resourceUrn: string, parentNode: string | null, actor: string): Promise<void> {
    const urn = parseUrn(resourceUrn);
    const parent = parentNode !== null ? parseUrn(parentNode) : null;
    const found = await this.ports.aspects.existing([urn.raw, ...(parent ? [parent.raw] : [])]);
    if (!found.has(urn.raw)) throw badRequest(`Failed to update ${urn.raw}. ${urn.raw} does not exist.`);
    if (parent !== null && (!found.has(parent.raw) || parent.entityType !== 'glossaryNode')) {
      throw badRequest(`Failed to update ${urn.raw}. ${parent.raw} either does not exist or is not a glossaryNode.`);
    }
    if (!isKind(urn.entityType)) throw badRequest(`Failed to update parentNode. Unsupported resource type ${urn.raw} provided.`);
    const tree = TREES[urn.entityType];
    if (urn.entityType === 'glossaryNode' && parent !== null && (await isAncestorOrSelf(this.ports.aspects, tree, urn.raw, parent.raw))) {
      throw badRequest('Cannot move a glossary node under one of its own descendants.');
    }
    const missing = `Info for this ${tree.noun} does not yet exist!`;
    await this.edits.editExisting(
      { urn: urn.raw, entityType: urn.entityType, aspect: tree.aspect },
      actor,
      () => badRequest(missing),
      (current) => withParent(current, tree, parent?.raw ?? null),
    );
  }
}

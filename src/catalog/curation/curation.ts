import { badRequest } from '../errors.ts';
import { aspectSpec, entitySpec } from '../registry/index.ts';
import { checkBatchSize, ResourceLookup, resourceMissing, type CheckedResource, type ResourceRef } from '../resource-refs.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf, type AspectEdit } from './aspect-edits.ts';
import { descriptionEdit, editablePropertiesEdit } from './descriptions.ts';
import { changeEditableField, changeLabels, LABELS, type LabelKind } from './labels.ts';
import { checkLinkUrl, linkMissing } from './links.ts';
import { addOwners, checkOwner, ownerUrnsToCheck, removeOwners, type OwnerInput } from './owners.ts';

export type { LabelKind } from './labels.ts';
export type { OwnerEntityType, OwnerInput } from './owners.ts';

/** Who calls, and the mutation's name for its size refusals. */
export interface CurationCall {
  readonly mutation: string;
  readonly actor: string;
}

/** Whether the single-resource owner mutations (addOwner, addOwners, removeOwner) or the batch ones called. */
type OwnerForm = 'single' | 'batch';

const ownershipMissing = (urn: string) => `Failed to change ownership for resource ${urn}. Resource does not exist.`;
const describedMissing = (urn: string) => `Failed to update ${urn}. ${urn} does not exist.`;

/** What to write on one checked resource: the aspect and how it changes. */
type EditOf = (r: CheckedResource) => { aspect: string; update: (current: Json | undefined) => Json };

/**
 * The curation use cases behind DataHub's GraphQL mutations: tags, glossary terms, owners, descriptions and
 * domains, on entities and (tags, terms, descriptions) on dataset fields. Each follows DataHub's resolver: its
 * checks in its order with its messages, everything checked before anything is written, and one call one
 * transaction (AspectEdits), so a failing resource of a batch leaves every resource as it was. The privilege
 * checks are the edge's (api/graphql/curation.ts), before any of this runs.
 */
export class Curation {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly edits: AspectEdits,
  ) {}

  /** addTag(s), removeTag, batchAddTags, batchRemoveTags and the glossary term forms (LabelUtils). */
  async changeLabels(kind: LabelKind, change: 'add' | 'remove', labelUrns: readonly string[], resources: readonly ResourceRef[], call: CurationCall) {
    const shape = LABELS[kind];
    checkBatchSize(call.mutation, 'resources', resources.length);
    checkBatchSize(call.mutation, shape.list, labelUrns.length);
    const labels = labelUrns.map((u) => parseUrn(u));
    const lookup = await ResourceLookup.read(this.ports.aspects, resources, change === 'add' ? labelUrns : []);
    // Only added labels are checked, as DataHub does: a removed one may be gone already.
    if (change === 'add') {
      for (const label of labels) {
        if (label.entityType !== shape.entityType) {
          throw badRequest(`Failed to validate label with urn ${label.raw}. Urn type does not match entity type ${shape.entityType}..`);
        }
        if (!lookup.has(label.raw)) throw badRequest(`Failed to validate label with urn ${label.raw}. Urn does not exist.`);
      }
    }
    const now = this.edits.now();
    const stamp = auditStampOf(call.actor, now);
    const urns = labels.map((l) => l.raw);
    const checked = resources.map((r) => lookup.check(r));
    await this.write(checked, call.actor, now, resourceMissing, (r) => {
      const field = r.field;
      if (field === undefined) return { aspect: shape.aspect, update: (current) => changeLabels(kind, current, change, urns, stamp) };
      return {
        aspect: 'editableSchemaMetadata',
        update: (current) =>
          changeEditableField(current, field, (info) => ({
            ...info,
            [shape.aspect]: changeLabels(kind, info[shape.aspect] as Json | undefined, change, urns, stamp),
          })),
      };
    });
  }

  /** addOwner, addOwners, batchAddOwners (OwnerUtils). */
  async addOwners(owners: readonly OwnerInput[], resources: readonly ResourceRef[], form: OwnerForm, call: CurationCall) {
    checkBatchSize(call.mutation, 'resources', resources.length);
    checkBatchSize(call.mutation, 'owners', owners.length);
    for (const o of owners) {
      parseUrn(o.ownerUrn);
      if (o.ownershipTypeUrn != null) parseUrn(o.ownershipTypeUrn);
    }
    const lookup = await ResourceLookup.read(this.ports.aspects, resources, owners.flatMap(ownerUrnsToCheck));
    const checked = this.ownedResources(lookup, resources, form, 'applied to', () => owners.forEach((o) => checkOwner(o, (u) => lookup.has(u))));
    const now = this.edits.now();
    const stamp = auditStampOf(call.actor, now);
    await this.write(checked, call.actor, now, ownershipMissing, () => ({
      aspect: 'ownership',
      update: (current) => addOwners(current, owners, stamp),
    }));
  }

  /** removeOwner, batchRemoveOwners: of one ownership type only when one is named. */
  async removeOwners(ownerUrns: readonly string[], typeUrn: string | null, resources: readonly ResourceRef[], form: OwnerForm, call: CurationCall) {
    checkBatchSize(call.mutation, 'resources', resources.length);
    checkBatchSize(call.mutation, 'owners', ownerUrns.length);
    for (const u of ownerUrns) parseUrn(u);
    const lookup = await ResourceLookup.read(this.ports.aspects, resources);
    const checked = this.ownedResources(lookup, resources, form, 'removed from', () => undefined);
    const now = this.edits.now();
    const stamp = auditStampOf(call.actor, now);
    await this.write(checked, call.actor, now, ownershipMissing, () => ({
      aspect: 'ownership',
      update: (current) => removeOwners(current, ownerUrns, typeUrn, stamp),
    }));
  }

  /** updateDescription: the entity's editable description, or one field's in a dataset's editableSchemaMetadata. */
  async updateDescription(description: string, resource: ResourceRef, call: CurationCall) {
    const urn = parseUrn(resource.resourceUrn);
    const entityType = entitySpec(urn.entityType).name;
    // A dataset field is meant when a subResourceType is given, as in DataHub's resolver.
    const onField = entityType === 'dataset' && resource.subResourceType != null;
    const edit = onField ? undefined : descriptionEdit(entityType, urn, description);
    const lookup = await ResourceLookup.read(this.ports.aspects, onField ? [resource] : [{ resourceUrn: urn.raw }]);
    const checked = lookup.check(onField ? resource : { resourceUrn: urn.raw }, describedMissing);
    const now = this.edits.now();
    await this.write([checked], call.actor, now, describedMissing, (r) => {
      const field = r.field;
      if (edit) return edit;
      return {
        aspect: 'editableSchemaMetadata',
        update: (current) => changeEditableField(current, field!, (info) => ({ ...info, description })),
      };
    });
  }

  /**
   * updateChart, updateDashboard, updateDataFlow, updateDataJob with `editableProperties`: the entity's editable
   * description. The entity must exist and be of the type the mutation names (`entityType`).
   */
  async updateEditableProperties(entityType: string, urnText: string, description: string, call: CurationCall) {
    const urn = parseUrn(urnText);
    if (entitySpec(urn.entityType).name !== entityType) throw badRequest(`urn ${urn.raw} is not a ${entityType} urn`);
    const lookup = await ResourceLookup.read(this.ports.aspects, [{ resourceUrn: urn.raw }]);
    const checked = lookup.check({ resourceUrn: urn.raw }, describedMissing);
    await this.write([checked], call.actor, this.edits.now(), describedMissing, () => editablePropertiesEdit(entityType, description));
  }

  /**
   * setDomain, unsetDomain and batchSetDomain: the entity's one domain, or none (`domain` null). The domain's
   * refusal and `call.missing` are the mutation's own (setDomain names the entity and the domain in both).
   */
  async setDomain(
    domain: { readonly urn: string; readonly missing: string } | null,
    resources: readonly ResourceRef[],
    call: CurationCall & { readonly missing?: (urn: string) => string },
  ) {
    checkBatchSize(call.mutation, 'resources', resources.length);
    if (domain !== null) parseUrn(domain.urn);
    const lookup = await ResourceLookup.read(this.ports.aspects, resources, domain === null ? [] : [domain.urn]);
    if (domain !== null && !lookup.has(domain.urn)) throw badRequest(domain.missing);
    const checked = resources.map((r) => lookup.check(r, call.missing));
    const now = this.edits.now();
    const domains = domain === null ? [] : [domain.urn];
    await this.write(checked, call.actor, now, call.missing ?? resourceMissing, () => ({
      aspect: 'domains',
      update: (current) => ({ ...current, domains }),
    }));
  }

  /**
   * addLink, updateLink, removeLink: each url checked (LinkUtils.validateUrl), then the entity, then `change` runs on
   * its institutionalMemory inside the write (a duplicate or a missing link aborts it).
   */
  async editLinks(resourceUrn: string, urls: readonly string[], change: (current: Json | undefined, stamp: Json) => Json, call: CurationCall) {
    const urn = parseUrn(resourceUrn);
    for (const url of urls) checkLinkUrl(url, urn.raw);
    const lookup = await ResourceLookup.read(this.ports.aspects, [{ resourceUrn: urn.raw }]);
    const checked = lookup.check({ resourceUrn: urn.raw }, linkMissing);
    const now = this.edits.now();
    const stamp = auditStampOf(call.actor, now);
    await this.write([checked], call.actor, now, linkMissing, () => ({ aspect: 'institutionalMemory', update: (current) => change(current, stamp) }));
  }

  /**
   * The owner mutations' resources: the single forms check the entity first with their own message, then the
   * owners; the batch forms check the owners, then refuse a field (owners belong to entities), then each entity.
   */
  private ownedResources(lookup: ResourceLookup, resources: readonly ResourceRef[], form: OwnerForm, verb: string, checkOwners: () => void) {
    if (form === 'single') {
      const checked = resources.map((r) => lookup.check({ resourceUrn: r.resourceUrn }, ownershipMissing));
      checkOwners();
      return checked;
    }
    checkOwners();
    return resources.map((r) => {
      if (r.subResource != null) throw badRequest(`Malformed input provided: owners cannot be ${verb} subresources.`);
      return lookup.check(r);
    });
  }

  private async write(resources: readonly CheckedResource[], actor: string, now: number, missing: (urn: string) => string, editOf: EditOf) {
    const edits = resources.map((r): AspectEdit => {
      const entityType = entitySpec(r.urn.entityType).name;
      const { aspect, update } = editOf(r);
      // Refused before anything is written when the entity's type has no such aspect (a tag on a tag).
      aspectSpec(entityType, aspect);
      return { urn: r.urn.raw, entityType, aspect, update };
    });
    await this.edits.apply(edits, actor, now, missing);
  }
}

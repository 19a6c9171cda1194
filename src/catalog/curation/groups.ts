import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest, notFound } from '../errors.ts';
import { checkBatchSize } from '../resource-refs.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { type AspectEdits, type AspectEdit } from './aspect-edits.ts';

const GROUP = 'corpGroup';
const MEMBERSHIP = 'nativeGroupMembership';

export interface CreateGroupInput {
  readonly id?: string | null;
  readonly name: string;
  readonly description?: string | null;
}

const groupsOf = (v: Json | undefined): string[] =>
  Array.isArray(v?.nativeGroups) ? (v.nativeGroups as unknown[]).filter((g): g is string => typeof g === 'string') : [];

/**
 * DataHub's native groups (GroupService): a group made here has origin NATIVE, and its members are the users whose
 * nativeGroupMembership names it, so adding members writes each user's membership (one transaction for all). A group
 * ingested from an external provider keeps its members as the provider sent them.
 */
export class Groups {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly edits: AspectEdits,
  ) {}

  /** createGroup: the new group's urn (a random id unless one is given). */
  async create(input: CreateGroupInput, actor: string): Promise<string> {
    const urn = parseUrn(`urn:li:corpGroup:${input.id ?? crypto.randomUUID()}`).raw;
    if ((await this.ports.aspects.existing([urn])).has(urn)) throw badRequest('This Group already exists!');
    const info: Json = { displayName: input.name, description: input.description ?? '', admins: [], members: [], groups: [] };
    const systemMetadata: Json = { properties: { appSource: 'ui' } };
    await this.catalog.ingest(
      [
        { entityType: GROUP, urn, changeType: 'UPSERT', aspectName: 'corpGroupInfo', value: info, systemMetadata },
        { entityType: GROUP, urn, changeType: 'UPSERT', aspectName: 'origin', value: { type: 'NATIVE' }, systemMetadata },
      ],
      actor,
    );
    return urn;
  }

  /**
   * removeGroup (DataHub's RemoveGroupResolver): the group deleted, then every reference to it in other entities'
   * aspects (its members' group memberships, ownerships, policies' actors). DataHub clears the references after
   * answering; here before, so a read right after the answer sees none. A group that is not there is no error, as in
   * DataHub.
   */
  async remove(groupUrn: string): Promise<void> {
    const urn = parseUrn(groupUrn).raw;
    if (parseUrn(urn).entityType !== GROUP) throw badRequest(`urn must be a group urn (urn:li:corpGroup:<id>), got ${urn}`);
    await this.catalog.delete({ urn });
    await this.catalog.deleteReferences(urn, false);
  }

  /** addGroupMembers: each user (who must exist) gets the group in its nativeGroupMembership, once. */
  async addMembers(groupUrn: string, userUrns: readonly string[], actor: string): Promise<void> {
    const { group, users } = await this.checked(groupUrn, userUrns, 'add', `Failed to add members to group ${groupUrn}. Group does not exist.`);
    const found = await this.ports.aspects.existing(users);
    if (users.some((u) => !found.has(u))) throw badRequest('Failed to add member to group. User does not exist.');
    const edits = users.map((urn): AspectEdit => ({
      urn,
      entityType: 'corpuser',
      aspect: MEMBERSHIP,
      update: (current) => ({ ...current, nativeGroups: [...groupsOf(current).filter((g) => g !== group), group] }),
    }));
    await this.edits.apply(edits, actor, this.edits.now(), () => 'Failed to add member to group. User does not exist.');
  }

  /** removeGroupMembers: the group leaves the nativeGroupMembership of each user that names it; others are not written. */
  async removeMembers(groupUrn: string, userUrns: readonly string[], actor: string): Promise<void> {
    const { group, users } = await this.checked(
      groupUrn,
      userUrns,
      'remove',
      `Failed to add remove members from group ${groupUrn}. Group does not exist.`,
    );
    const memberships = await this.ports.aspects.getEntities(users, [MEMBERSHIP]);
    const members = users.filter((u) => groupsOf(memberships.get(u)?.find((a) => a.aspect === MEMBERSHIP)?.value).includes(group));
    const edits = members.map((urn): AspectEdit => ({
      urn,
      entityType: 'corpuser',
      aspect: MEMBERSHIP,
      update: (current) => ({ ...current, nativeGroups: groupsOf(current).filter((g) => g !== group) }),
    }));
    await this.edits.apply(edits, actor, this.edits.now(), (urn) => `Failed to remove ${urn} from group ${group}. User does not exist.`);
  }

  /** The group must exist (DataHub's NOT_FOUND) and be native: an external group's members are its provider's. */
  private async checked(groupUrn: string, userUrns: readonly string[], verb: 'add' | 'remove', missing: string) {
    checkBatchSize(`${verb}GroupMembers`, 'userUrns', userUrns.length);
    const group = parseUrn(groupUrn).raw;
    const users = [...new Set(userUrns.map((u) => parseUrn(u).raw))];
    const stored = (await this.ports.aspects.getEntities([group], ['origin'])).get(group);
    if (stored === undefined) throw notFound(missing);
    if (stored.find((a) => a.aspect === 'origin')?.value.type === 'EXTERNAL') {
      const how = verb === 'add' ? 'added to' : 'removed from';
      throw badRequest(`Group ${group} was ingested from an external provider and cannot have members manually ${how} it`);
    }
    return { group, users };
  }
}

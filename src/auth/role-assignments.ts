import { badRequest } from '../catalog/errors.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { Parts, ReadParts } from '../storage/store.ts';
import { isRoleUrn } from './roles.ts';
import { recordAudit } from './audit-events.ts';

export const MAX_ROLE_ACTORS = 1000;

/** Who holds which of DataHub's three roles: read on every authorization, changed by batchAssignRole. */
export class RoleAssignments {
  constructor(
    private readonly ports: Pick<Parts, 'identity' | 'audit'> & Pick<ReadParts, 'aspects'>,
    private readonly clock: () => number = Date.now,
  ) {}

  roleOf(actorUrn: string): Promise<string | undefined> {
    return this.ports.identity.getRole(actorUrn);
  }

  /** Assigns one role to existing users, or removes theirs when `roleUrn` is null: all or nothing. */
  async assign(actors: readonly string[], roleUrn: string | null, assignedBy: string): Promise<void> {
    if (roleUrn !== null && !isRoleUrn(roleUrn)) throw badRequest(`Role ${roleUrn} does not exist`);
    if (actors.length === 0 || actors.length > MAX_ROLE_ACTORS) throw badRequest(`actors must list from 1 to ${MAX_ROLE_ACTORS} users`);
    actors.forEach((a, i) => {
      if (parseUrn(a).entityType !== 'corpuser') throw badRequest(`actors[${i}]: ${a} is not a corpuser urn`);
    });
    const found = await this.ports.aspects.existing(actors);
    const missing = actors.find((a) => !found.has(a));
    if (missing) throw badRequest(`Failed to assign role: user ${missing} does not exist`);
    const now = this.clock();
    await this.ports.identity.setRole(actors, roleUrn, assignedBy, now);
    // DataHub writes each user's roleMembership aspect: one UpdateAspectEvent per user.
    for (const actor of actors)
      await recordAudit(this.ports.audit, 'UpdateAspectEvent', assignedBy, { entityUrn: actor, aspectName: 'roleMembership' }, now);
  }
}

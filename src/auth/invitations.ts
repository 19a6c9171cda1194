import crypto from 'node:crypto';
import { badRequest, conflict } from '../catalog/errors.ts';
import { SYSTEM_ACTOR, type Catalog } from '../catalog/catalog.ts';
import { parseUrn } from '../catalog/urn.ts';
import type { Parts, ReadParts } from '../storage/store.ts';
import { hashPassword } from './passwords.ts';
import { ADMIN_URN, corpUserUrn } from './principal.ts';
import { ROLES, isRoleUrn, type RoleUrn } from './roles.ts';
import { safeEqual } from './secrets.ts';
import type { TokenService } from './token-service.ts';
import { checkPassword, type PasswordRules } from './users.ts';
import { recordAudit } from './audit-events.ts';

/** The invitation without a role is kept under this key; each role under its urn. */
const NO_ROLE = '';
const ROLE_KEYS = [NO_ROLE, ...Object.keys(ROLES)];
const MAX_EMAIL_LENGTH = 254;
// An email is the new user's urn key, so it must not hold what urn syntax or the cookie needs: spaces, commas, parentheses, colons.
const EMAIL = /^[^\s@:,()"]+@[^\s@:,()"]+$/;

export interface SignUpInput {
  readonly fullName: string;
  readonly email: string;
  readonly title?: string | null;
  readonly password: string;
  readonly inviteToken: string;
}

/**
 * DataHub's invitations: one invite token per role (or none), reusable until it
 * is regenerated, and sign-up with it as a native user who gets that role. A
 * token is an HMAC of its role and a stored nonce under the signing key, so the
 * database holds no usable token.
 */
export class Invitations {
  constructor(
    private readonly catalog: Catalog,
    private readonly ports: Pick<Parts, 'identity' | 'userAccess' | 'audit'> & Pick<ReadParts, 'relationships'>,
    private readonly tokens: TokenService,
    private readonly clock: () => number = Date.now,
  ) {}

  private tokenOf(roleKey: string, nonce: string): string {
    return this.tokens.derive(`invite\u0001${roleKey}\u0001${nonce}`);
  }

  /** The role's current token; a new one (the old one stops working) when `regenerate` is set or there is none yet. */
  async token(roleUrn: string | null | undefined, regenerate: boolean, actor: string): Promise<string> {
    const roleKey = roleUrn ?? NO_ROLE;
    if (roleKey !== NO_ROLE && !isRoleUrn(roleKey)) throw badRequest(`Field 'roleUrn': role ${roleKey} does not exist`);
    const current = regenerate ? undefined : await this.ports.userAccess.getInvite(roleKey);
    if (current) return this.tokenOf(roleKey, current.nonce);
    const nonce = crypto.randomBytes(16).toString('base64url');
    await this.ports.userAccess.putInvite({ roleKey, nonce, createdAt: this.clock(), createdBy: actor });
    return this.tokenOf(roleKey, nonce);
  }

  /** The role an invite token grants (null for none); throws when the token is not a current one. */
  private async redeem(token: string): Promise<RoleUrn | null> {
    for (const roleKey of ROLE_KEYS) {
      const invite = await this.ports.userAccess.getInvite(roleKey);
      if (invite && safeEqual(token, this.tokenOf(roleKey, invite.nonce))) return roleKey === NO_ROLE ? null : (roleKey as RoleUrn);
    }
    throw badRequest("Field 'inviteToken': the invite token is not valid (it may have been regenerated)");
  }

  /**
   * Whether metadata already points at this identity (an ownership, a group's member list: any relationship into it).
   * The address is not verified, so whoever signs up with it must not inherit what was given to its owner.
   */
  private async namedInMetadata(urn: string): Promise<boolean> {
    const spellings = [...new Set([urn, urn.toLowerCase()])];
    const found = await this.ports.relationships.scanRelationships({ where: [[{ destination: spellings }]], includeSoftDeleted: true, limit: 1 });
    return found.length > 0;
  }

  /** Creates the user `urn:li:corpuser:<email>` as DataHub's sign-up does; answers its urn. */
  async signUp(input: SignUpInput, rules: PasswordRules): Promise<string> {
    if (input.fullName.trim() === '') throw badRequest("Field 'fullName': Full name must not be empty.");
    if (input.email.length > MAX_EMAIL_LENGTH || !EMAIL.test(input.email)) {
      throw badRequest(
        `Field 'email' must be an email address of at most ${MAX_EMAIL_LENGTH} characters, without spaces, commas, parentheses or colons`,
      );
    }
    checkPassword(input.password, rules);
    if (input.inviteToken.trim() === '') throw badRequest("Field 'inviteToken': Invite token must not be empty.");
    const role = await this.redeem(input.inviteToken);
    const urn = corpUserUrn(input.email);
    parseUrn(urn);
    // EVE@example.com and eve@example.com are one person: a user of either spelling exists already.
    if (urn.toLowerCase() === ADMIN_URN || (await this.ports.userAccess.userUrnsIgnoringCase(urn)).length > 0) {
      throw conflict('This user already exists! Cannot create a new user.');
    }
    if (await this.namedInMetadata(urn)) {
      throw conflict(
        `Cannot sign up as ${input.email}: that identity is already named in the catalog's metadata (an owner or a group member), and signing up would take over what it was given. Ask an Admin to create the user.`,
      );
    }
    const now = this.clock();
    const aspect = (aspectName: string, value: Record<string, unknown>) => ({
      entityType: 'corpuser',
      urn,
      changeType: 'UPSERT',
      aspectName,
      value,
      systemMetadata: null,
    });
    const info = {
      active: true,
      fullName: input.fullName,
      displayName: input.fullName,
      email: input.email,
      ...(input.title ? { title: input.title } : {}),
    };
    // The password first: until the user entity exists it signs no one in, and the entity appears whole in one batch.
    await this.ports.userAccess.resetPassword(urn, await hashPassword(input.password), now);
    await this.catalog.ingest(
      [aspect('corpUserInfo', info), aspect('corpUserStatus', { status: 'ACTIVE', lastModified: { time: now, actor: urn } })],
      urn,
    );
    if (role) await this.ports.identity.setRole([urn], role, urn, now);
    // As DataHub records a sign-up: one event per aspect its system actor writes, the key's a CreateUserEvent.
    const written = ['corpUserKey', 'corpUserInfo', 'corpUserStatus', 'corpUserCredentials'];
    for (const aspectName of written) {
      const type = aspectName === 'corpUserKey' ? 'CreateUserEvent' : 'UpdateUserEvent';
      await recordAudit(this.ports.audit, type, SYSTEM_ACTOR, { entityUrn: urn, aspectName }, now);
    }
    return urn;
  }
}

import type { AccessTokenRecord } from './store.ts';

/** The access_tokens row as both adapters read it. */
export interface AccessTokenRow {
  id: string;
  name: string;
  description: string | null;
  actor_urn: string;
  owner_urn: string;
  created_at: number;
  expires_at: number | null;
}

export const toAccessToken = (r: AccessTokenRow): AccessTokenRecord => ({
  id: r.id,
  name: r.name,
  description: r.description,
  actorUrn: r.actor_urn,
  ownerUrn: r.owner_urn,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

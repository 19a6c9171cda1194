/** Who is making a request, once authenticated. */
export interface Principal {
  /** e.g. urn:li:corpuser:datahub, or urn:li:corpuser:__datahub_system for the system client. */
  readonly actorUrn: string;
  readonly kind: 'user' | 'system';
  /** The stored id of the access token used, when the request carried one. */
  readonly tokenId?: string;
  /** Set when the request was authenticated by the session cookie, which a browser sends with any request. */
  readonly viaCookie?: true;
  /** The store's auth change mark read when the request was authenticated: its authorization lookups reuse it. */
  readonly authMark?: number;
}

export const ADMIN_URN = 'urn:li:corpuser:datahub';

export const corpUserUrn = (username: string): string => `urn:li:corpuser:${username}`;

/**
 * The cookies DataHub's frontend sets at sign-in (AuthenticationController.createSession):
 * PLAY_SESSION, HttpOnly, holding the session, and `actor`, readable by the page,
 * holding the user's urn. Both are SameSite=Lax, so another site cannot make a
 * browser send them with a cross-site POST. Almanac's PLAY_SESSION value is its
 * session token itself (DataHub's is Play's signed map of actor and token).
 */
export const SESSION_COOKIE = 'PLAY_SESSION';
export const ACTOR_COOKIE = 'actor';

export interface CookieOptions {
  readonly maxAgeSeconds: number;
  readonly secure: boolean;
}

// RFC 6265 cookie-octets; anything else (a space, a quote, a comma, a semicolon) is percent-encoded.
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const encodeValue = (v: string): string => (COOKIE_OCTETS.test(v) && !v.includes('%') ? v : encodeURIComponent(v));

function setCookie(name: string, value: string, options: CookieOptions, httpOnly: boolean): string {
  const attributes = [`${name}=${encodeValue(value)}`, `Max-Age=${options.maxAgeSeconds}`, 'Path=/', 'SameSite=Lax'];
  if (options.maxAgeSeconds > 0) attributes.push(`Expires=${new Date(Date.now() + options.maxAgeSeconds * 1000).toUTCString()}`);
  else attributes.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (httpOnly) attributes.push('HttpOnly');
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** The Set-Cookie values that start a session. */
export const sessionCookies = (token: string, actorUrn: string, options: CookieOptions): string[] => [
  setCookie(SESSION_COOKIE, token, options, true),
  setCookie(ACTOR_COOKIE, actorUrn, options, false),
];

/** The Set-Cookie values that clear both cookies. */
export const clearedSessionCookies = (secure: boolean): string[] => [
  setCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0, secure }, true),
  setCookie(ACTOR_COOKIE, '', { maxAgeSeconds: 0, secure }, false),
];

/** The named cookie of a Cookie header, percent-decoded; undefined when absent or empty. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      return undefined;
    }
    return value === '' ? undefined : value;
  }
  return undefined;
}

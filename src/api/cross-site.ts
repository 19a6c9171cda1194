import type { FastifyRequest } from 'fastify';
import { CatalogError } from '../catalog/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A body a cross-site HTML form cannot send: forms send text/plain, urlencoded or multipart only. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Whether the request would change something: anything but a read. */
export const changesState = (req: FastifyRequest): boolean => !SAFE_METHODS.has(req.method);

/**
 * Whether a browser sent this request from another site. `Sec-Fetch-Site` (sent by every current browser) says so
 * directly; `same-site` counts as foreign too, since a sibling subdomain or another port is not the console. Without
 * it, `Origin` must name this host (or ALMANAC_PUBLIC_URL's); a request with neither came from no browser page.
 */
function foreignOrigin(req: FastifyRequest, publicUrl: URL | undefined): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site is ${site}`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return `Origin ${JSON.stringify(origin)} is not this server's`;
  }
  if (host === req.headers.host || (publicUrl !== undefined && host === publicUrl.host)) return undefined;
  return `Origin ${origin} is not this server's`;
}

/**
 * Refuses a change authenticated by the session cookie unless it is JSON from the console's own origin: a cookie
 * rides along with any request a browser makes, so without this another page could make the signed-in user's
 * changes. Bearer-token requests carry their credential explicitly and are not affected.
 */
export function refuseCrossSiteCookieWrite(req: FastifyRequest, publicUrl: URL | undefined): void {
  if (!changesState(req)) return;
  const foreign = foreignOrigin(req, publicUrl);
  if (foreign !== undefined) {
    throw new CatalogError(
      'FORBIDDEN',
      `Cross-site request refused: ${foreign}. Changes made with the session cookie must come from the console's own origin.`,
    );
  }
  const type = req.headers['content-type'];
  if (req.headers['content-length'] !== '0' && (type === undefined || !JSON_MEDIA_TYPE.test(type))) {
    throw new CatalogError(
      'FORBIDDEN',
      `Cross-site request refused: a change made with the session cookie must be sent as application/json, got ${type ?? 'no Content-Type'}. Scripts should use a bearer token.`,
    );
  }
}

/** Sign-in and sign-up from another site's page (login CSRF: signing the user in as someone else) are refused too. */
export function refuseCrossSiteSignIn(req: FastifyRequest, publicUrl: URL | undefined): void {
  const foreign = foreignOrigin(req, publicUrl);
  if (foreign !== undefined) throw new CatalogError('FORBIDDEN', `Cross-site request refused: ${foreign}. Sign in from the console's own page.`);
}

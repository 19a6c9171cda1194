import type { FastifyReply } from 'fastify';
import { CatalogError, type ErrorCode } from '../catalog/errors.ts';
import { StoreError } from '../storage/store-error.ts';

/** The one table from domain codes to HTTP status: a new code without a status fails to compile. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** DataHub's GraphQL error codes (DataHubGraphQLErrorCode). */
export const GRAPHQL_CODE: Readonly<Record<ErrorCode, { code: number; type: string }>> = {
  BAD_REQUEST: { code: 400, type: 'BAD_REQUEST' },
  VALIDATION_FAILED: { code: 400, type: 'BAD_REQUEST' },
  UNAUTHENTICATED: { code: 401, type: 'UNAUTHORIZED' },
  FORBIDDEN: { code: 403, type: 'UNAUTHORIZED' },
  NOT_FOUND: { code: 404, type: 'NOT_FOUND' },
  CONFLICT: { code: 409, type: 'CONFLICT' },
  PRECONDITION_FAILED: { code: 412, type: 'BAD_REQUEST' },
  PAYLOAD_TOO_LARGE: { code: 400, type: 'BAD_REQUEST' },
  URI_TOO_LONG: { code: 400, type: 'BAD_REQUEST' },
  HEADERS_TOO_LARGE: { code: 400, type: 'BAD_REQUEST' },
  REQUEST_TIMEOUT: { code: 400, type: 'BAD_REQUEST' },
  RATE_LIMITED: { code: 429, type: 'TOO_MANY_REQUESTS' },
  UNAVAILABLE: { code: 503, type: 'SERVICE_UNAVAILABLE' },
  INTERNAL: { code: 500, type: 'SERVER_ERROR' },
};

export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';
const RESTLI_EXCEPTION = 'com.linkedin.restli.server.RestLiServiceException';

/** Seconds a client should wait before retrying a request the database could not serve. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/** The storage failures a caller can act on, as domain errors; undefined for anything else. */
export function fromStoreError(e: unknown): CatalogError | undefined {
  if (!(e instanceof StoreError)) return undefined;
  return e.kind === 'UNAVAILABLE'
    ? new CatalogError('UNAVAILABLE', 'The database is unavailable; retry shortly', { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS })
    : new CatalogError('CONFLICT', 'The write conflicts with a concurrent one; retry it');
}

/** Fastify's own errors (body parsing, limits) and storage failures expressed as domain errors. */
export function fromFrameworkError(e: unknown): CatalogError | undefined {
  if (e instanceof CatalogError) return e;
  const stored = fromStoreError(e);
  if (stored) return stored;
  const err = e as { code?: string; statusCode?: number; message?: string };
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new CatalogError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CatalogError('BAD_REQUEST', 'Unsupported Content-Type: send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new CatalogError('BAD_REQUEST', 'Request body is empty: send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new CatalogError('BAD_REQUEST', 'Request body is not valid JSON');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new CatalogError('URI_TOO_LONG', 'A path segment is longer than any urn Almanac accepts');
    case 'FST_ERR_BAD_URL':
      return new CatalogError('BAD_REQUEST', 'The request path is not a valid URL (bad percent-encoding)');
    // Node's HTTP parser, before any request object exists (Fastify's clientErrorHandler).
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new CatalogError('REQUEST_TIMEOUT', 'The request was not received in time');
    case 'HPE_HEADER_OVERFLOW':
      return new CatalogError('HEADERS_TOO_LARGE', 'The request headers are too large');
  }
  if (typeof err.code === 'string' && err.code.startsWith('HPE_')) return new CatalogError('BAD_REQUEST', 'Malformed HTTP request');
  if (err instanceof SyntaxError || err.statusCode === 400) return new CatalogError('BAD_REQUEST', 'Request body is not valid JSON');
  return undefined;
}

/** Rate limits and an unreachable database tell the client when to come back. */
function retryAfter(reply: FastifyReply, e: CatalogError | undefined): void {
  if (typeof e?.details?.retryAfterSeconds === 'number') reply.header('Retry-After', String(e.details.retryAfterSeconds));
}

/** The Rest.li error body and status of a domain error (undefined: an unexpected fault, masked). */
export function restliError(e: CatalogError | undefined): { status: number; body: Record<string, unknown> } {
  const status = e ? HTTP_STATUS[e.code] : 500;
  return { status, body: { exceptionClass: RESTLI_EXCEPTION, message: e ? e.message : UNKNOWN_ERROR_MESSAGE, status, ...(e?.details ?? {}) } };
}

/** Sends a Rest.li-shaped error; anything unexpected is masked and must be logged by the caller. */
export function sendRestliError(reply: FastifyReply, e: CatalogError | undefined): FastifyReply {
  const { status, body } = restliError(e);
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="almanac"');
  retryAfter(reply, e);
  return reply.code(status).header('X-RestLi-Error-Response', 'true').type('application/json').send(body);
}

/**
 * For a GraphQL request refused before execution (unparseable body, no token):
 * the HTTP status of the code, with the body GraphQL clients read, `{errors: [...]}`.
 */
export function sendGraphqlHttpError(reply: FastifyReply, e: CatalogError | undefined): FastifyReply {
  const status = e ? HTTP_STATUS[e.code] : 500;
  const error = { message: e ? e.message : UNKNOWN_ERROR_MESSAGE, extensions: GRAPHQL_CODE[e ? e.code : 'INTERNAL'] };
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="almanac"');
  retryAfter(reply, e);
  return reply
    .code(status)
    .type('application/json')
    .send({ errors: [error], extensions: {} });
}

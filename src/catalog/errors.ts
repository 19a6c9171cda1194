/**
 * The closed list of domain error codes. The edge (src/api/errors.ts) maps each
 * code to a Rest.li status and a GraphQL error code in one exhaustive table.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  /** A conditional write's precondition (If-Version-Match, If-Modified-Since, If-Unmodified-Since) does not hold. */
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  /** The database cannot be reached; retrying later may succeed. */
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error whose message is safe to show to the caller. */
export class CatalogError extends Error {
  readonly code: ErrorCode;
  /** Extra fields the edge may put in the response body (never secrets). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CatalogError';
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new CatalogError('BAD_REQUEST', message, details);
export const validationFailed = (message: string, details?: Record<string, unknown>) => new CatalogError('VALIDATION_FAILED', message, details);
export const notFound = (message: string) => new CatalogError('NOT_FOUND', message);
export const conflict = (message: string, details?: Record<string, unknown>) => new CatalogError('CONFLICT', message, details);
export const preconditionFailed = (message: string) => new CatalogError('PRECONDITION_FAILED', message);
export const forbidden = (message: string) => new CatalogError('FORBIDDEN', message);
export const unauthenticated = (message: string) => new CatalogError('UNAUTHENTICATED', message);

export const isCatalogError = (e: unknown): e is CatalogError => e instanceof CatalogError;

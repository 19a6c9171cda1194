import { CatalogError, type ErrorCode } from '../catalog/errors.ts';

/** The CLI's exit statuses: one scheme for every command, whether the CLI, the server or the database says no. */
export const EXIT = {
  OK: 0,
  /** Anything not below: a conflict, a failed task or ingestion item, a database that cannot be opened. */
  FAILURE: 1,
  /** The input is wrong: an unknown option, a missing or malformed argument, or a request the server refused as invalid (400, 413, 422). */
  USAGE: 2,
  /** No valid token (401), or not allowed (403). */
  AUTH: 3,
  /** What was asked for does not exist (404). */
  NOT_FOUND: 4,
  /** The server or the database cannot be reached, or the server failed (5xx, or an answer that is not JSON). */
  UNAVAILABLE: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI prints as one line and exits with `exit` on. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exit: ExitCode = EXIT.FAILURE,
  ) {
    super(message);
  }
}

/** A bad option or argument, found before anything is sent. */
export const usageError = (message: string) => new CliError(message, EXIT.USAGE);

/** What an HTTP status (or a GraphQL error's numeric code) means for the exit status. */
export function exitForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.AUTH;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status === 400 || status === 413 || status === 414 || status === 422 || status === 431) return EXIT.USAGE;
  if (status >= 500) return EXIT.UNAVAILABLE;
  return EXIT.FAILURE;
}

// Exhaustive: a new domain error code does not compile until it has an exit status.
const FOR_CODE: Record<ErrorCode, ExitCode> = {
  BAD_REQUEST: EXIT.USAGE,
  VALIDATION_FAILED: EXIT.USAGE,
  UNAUTHENTICATED: EXIT.AUTH,
  FORBIDDEN: EXIT.AUTH,
  NOT_FOUND: EXIT.NOT_FOUND,
  CONFLICT: EXIT.FAILURE,
  PRECONDITION_FAILED: EXIT.FAILURE,
  PAYLOAD_TOO_LARGE: EXIT.USAGE,
  URI_TOO_LONG: EXIT.USAGE,
  HEADERS_TOO_LARGE: EXIT.USAGE,
  REQUEST_TIMEOUT: EXIT.FAILURE,
  RATE_LIMITED: EXIT.FAILURE,
  INTERNAL: EXIT.FAILURE,
  UNAVAILABLE: EXIT.UNAVAILABLE,
};

/** The exit status of an error a command threw (bootstrap commands throw the domain's errors directly). */
export function exitCodeOf(e: unknown): ExitCode {
  if (e instanceof CliError) return e.exit;
  if (e instanceof CatalogError) return FOR_CODE[e.code];
  return EXIT.FAILURE;
}

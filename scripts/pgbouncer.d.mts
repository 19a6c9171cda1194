export interface PgBouncer {
  /** The pooler's URL for `database` (the server URL's own database when omitted). */
  url(database?: string): string;
  stop(): Promise<void>;
  readonly unavailable?: undefined;
}
export function pgbouncerBinary(): string | undefined;
/** PgBouncer in transaction mode in front of the server `serverUrl` names. */
export function startPgBouncer(serverUrl: string, options?: { readonly tmpDir?: string }): Promise<PgBouncer | { readonly unavailable: string }>;

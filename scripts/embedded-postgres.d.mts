export interface EmbeddedPostgres {
  readonly url: string;
  readonly version: string;
  stop(): Promise<void>;
}
export function startEmbeddedPostgres(): Promise<EmbeddedPostgres | { readonly unavailable: string }>;
export function redact(url: string): string;
export function postgresForTests(
  url: string,
  log?: (message: string) => void,
): Promise<{ readonly url: string; readonly version?: string; readonly stop?: () => Promise<void> }>;

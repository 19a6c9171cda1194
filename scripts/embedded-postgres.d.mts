export interface EmbeddedPostgres {
  readonly url: string;
  readonly version: string;
  stop(): Promise<void>;
}
export interface EmbeddedPostgresUnavailable {
  readonly unavailable: string;
  readonly stop?: undefined;
}
/** `nativeDir`: the platform binaries (bin, lib, share); `tmpDir`: where its temporary directories go (os.tmpdir()). */
export function startEmbeddedPostgres(options?: {
  readonly nativeDir?: string;
  readonly tmpDir?: string;
}): Promise<(EmbeddedPostgres & { readonly unavailable?: undefined }) | EmbeddedPostgresUnavailable>;
export function redact(url: string): string;
export function postgresForTests(
  url: string,
  log?: (message: string) => void,
): Promise<{ readonly url: string; readonly version?: string; readonly stop?: () => Promise<void> }>;
export function freePort(): Promise<number>;
export function platformBinaries(): Promise<{ readonly nativeDir: string; readonly unavailable?: undefined } | { readonly unavailable: string }>;
export function postgresUser(): { readonly uid: number; readonly gid: number };
export function run(file: string, args: readonly string[], options?: object): Promise<string>;

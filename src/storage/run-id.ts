import type { Json } from './store.ts';

/** The run that wrote a value: the `runId` of the proposal's systemMetadata, when it is a string. */
export const runIdOf = (systemMetadata: Json | null): string | null => (typeof systemMetadata?.runId === 'string' ? systemMetadata.runId : null);

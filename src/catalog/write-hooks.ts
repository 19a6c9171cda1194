import type { Json } from '../storage/store.ts';
import { syncDomains } from './domains-sync.ts';

type WriteHook = (value: Json, previous: Json | undefined, urn: string) => Json;

/**
 * DataHub's mutation hooks that Almanac applies, by aspect name: each runs inside the write on the value about to be
 * stored, with the stored one, on every write path (ingestion, PATCH, GraphQL curation).
 */
const HOOKS: ReadonlyMap<string, WriteHook> = new Map([['domains', syncDomains]]);

/** The hook of an aspect, when DataHub has one Almanac applies. */
export const writeHookOf = (aspect: string): WriteHook | undefined => HOOKS.get(aspect);

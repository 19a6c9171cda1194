import { isDeepStrictEqual } from 'node:util';
import type { Json } from '../storage/store.ts';
import { badRequest } from './errors.ts';

type Association = { readonly domain: string; readonly attribution?: { readonly sourceDetail?: Record<string, string> } } & Record<string, unknown>;
type Domains = { domains?: string[]; domainAssociations?: Association[] } & Record<string, unknown>;

const isPropagated = (a: Association): boolean => a.attribution?.sourceDetail?.propagated?.toLowerCase() === 'true';

/** Keeps the previous associations of domains still named, and adds a bare one for each new domain. */
function associationsFromDomains(domains: readonly string[], previous: Domains | undefined): Association[] {
  const wanted = new Set(domains);
  const kept = (previous?.domainAssociations ?? []).filter((a) => wanted.has(a.domain));
  const have = new Set(kept.map((a) => a.domain));
  return [...kept, ...[...wanted].filter((d) => !have.has(d)).map((domain) => ({ domain }))];
}

/**
 * DataHub's DomainsSyncMutationHook: a `domains` aspect's legacy `domains` list and its `domainAssociations` say the
 * same, whichever of the two a write changed (the other follows); a write that changes both differently is refused;
 * manual associations come before propagated ones, and `domains` follows their order. Runs on the value a write is
 * about to store, with the stored one as `previous`.
 */
export function syncDomains(proposedValue: Json, previousValue: Json | undefined, urn: string): Json {
  const proposed = structuredClone(proposedValue) as Domains;
  const previous = previousValue as Domains | undefined;
  const domains = proposed.domains ?? [];
  if (proposed.domainAssociations === undefined) {
    proposed.domainAssociations = associationsFromDomains(domains, previous);
  } else {
    const domainsChanged = !isDeepStrictEqual(domains, previous?.domains ?? []);
    const associationsChanged = !isDeepStrictEqual(proposed.domainAssociations, previous?.domainAssociations ?? []);
    if (domainsChanged && associationsChanged) {
      const fromAssociations = new Set(proposed.domainAssociations.map((a) => a.domain));
      const named = new Set(domains);
      const same = fromAssociations.size === named.size && [...named].every((d) => fromAssociations.has(d));
      if (named.size > 0 && !same) {
        throw badRequest(
          "Cannot update both 'domains' and 'domainAssociations' in the same write. Use 'domainAssociations' for rich metadata or " +
            `'domains' for legacy compatibility, but not both. Entity: ${urn}`,
        );
      }
    } else if (domainsChanged) {
      proposed.domainAssociations = associationsFromDomains(domains, previous);
    }
  }
  // A stable sort: manual associations first, each group in its own order.
  proposed.domainAssociations = [...proposed.domainAssociations.filter((a) => !isPropagated(a)), ...proposed.domainAssociations.filter(isPropagated)];
  proposed.domains = [...new Set(proposed.domainAssociations.map((a) => a.domain))];
  return proposed as Json;
}

/** The page part of an address: `#/search` of `#/search?query=x`. */
const pageOf = (hash: string): string => hash.split('?')[0] ?? '';

/**
 * Writes a page's state into the address bar (no navigation, no history entry), but only while the address still
 * names that page. An effect that runs after a link or the user has already moved elsewhere must not pull the
 * address back: the router reads the address when the hashchange arrives and would show the old page again.
 * `isDefault`: the page the router shows for an empty address, which it may also claim.
 */
export function replaceOwnAddress(hash: string, { isDefault = false } = {}): void {
  const current = location.hash;
  if (current === hash) return;
  const mine = pageOf(current) === pageOf(hash) || (isDefault && (current === '' || current === '#'));
  if (mine) history.replaceState(null, '', hash);
}

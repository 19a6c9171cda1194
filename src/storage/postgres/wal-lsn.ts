/**
 * WAL positions (`pg_lsn`, printed `16/B374D848`) as plain numbers: byte offsets into the WAL, exact up to 2^53 bytes
 * (8 PiB of WAL), compared with `<`.
 */
export function parseLsn(text: string): number {
  const slash = text.indexOf('/');
  return parseInt(text.slice(0, slash), 16) * 2 ** 32 + parseInt(text.slice(slash + 1), 16);
}

/** The WAL's page and segment sizes, which the server reports once per connection. */
export interface WalGeometry {
  readonly blockSize: number;
  readonly segmentSize: number;
}

/** The SQL that reads `WalGeometry` (as `block` and `segment`). */
export const WAL_GEOMETRY_SQL =
  "SELECT current_setting('wal_block_size')::int AS block, (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size') AS segment";

const SHORT_PAGE_HEADER = 24;
const LONG_PAGE_HEADER = 40;

/**
 * The primary's insert position as a replica's replay position can equal it. When the last record ends exactly at a
 * page boundary, `pg_current_wal_insert_lsn()` points past the next page's header while a replica that replayed that
 * record reports the boundary itself; nothing lies between the two, so the boundary is the position to wait for.
 */
export function insertPositionAsReplayed(lsn: number, geometry: WalGeometry): number {
  const inPage = lsn % geometry.blockSize;
  if (lsn % geometry.segmentSize === LONG_PAGE_HEADER) return lsn - LONG_PAGE_HEADER;
  return inPage === SHORT_PAGE_HEADER ? lsn - SHORT_PAGE_HEADER : lsn;
}

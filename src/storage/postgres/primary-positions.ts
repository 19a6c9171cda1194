/** How many positions are kept, and how close together two may be: at least 2.5 s of history under any load. */
const MAX_SAMPLES = 512;
const MIN_SPACING_MILLIS = 5;

/**
 * Recent WAL positions of the primary and when each was read (from the listener's barriers and heartbeats), so a
 * replica's lag is a time: how long ago the primary first stood at a position the replica has not replayed yet.
 */
export class PrimaryPositions {
  private readonly at: number[] = [];
  private readonly lsn: number[] = [];

  add(lsn: number, at: number): void {
    const last = this.lsn.length - 1;
    if (last >= 0 && (lsn <= this.lsn[last]! || at - this.at[last]! < MIN_SPACING_MILLIS)) return;
    this.at.push(at);
    this.lsn.push(lsn);
    if (this.lsn.length > MAX_SAMPLES) {
      this.at.shift();
      this.lsn.shift();
    }
  }

  /** Milliseconds since the primary first passed `replayed` (0 when no known position lies beyond it). */
  lagMillis(replayed: number, now: number): number {
    // Positions only grow: the first one past `replayed` is found by bisection.
    let lo = 0;
    let hi = this.lsn.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lsn[mid]! > replayed) hi = mid;
      else lo = mid + 1;
    }
    return lo === this.lsn.length ? 0 : Math.max(0, now - this.at[lo]!);
  }
}

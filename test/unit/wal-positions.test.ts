import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrimaryPositions } from '../../src/storage/postgres/primary-positions.ts';
import { insertPositionAsReplayed, parseLsn } from '../../src/storage/postgres/wal-lsn.ts';

const geometry = { blockSize: 8192, segmentSize: 16 * 1024 * 1024 };

describe('WAL positions', () => {
  it('reads a pg_lsn as the byte offset it names', () => {
    assert.equal(parseLsn('0/0'), 0);
    assert.equal(parseLsn('0/16B3748'), 0x16b3748);
    assert.equal(parseLsn('16/B374D848'), 0x16 * 2 ** 32 + 0xb374d848);
  });

  it('waits for a page boundary, not the header after it, when the last record ends there', () => {
    assert.equal(insertPositionAsReplayed(5 * 8192 + 24, geometry), 5 * 8192);
    assert.equal(insertPositionAsReplayed(3 * geometry.segmentSize + 40, geometry), 3 * geometry.segmentSize);
    assert.equal(insertPositionAsReplayed(5 * 8192 + 40, geometry), 5 * 8192 + 40);
    assert.equal(insertPositionAsReplayed(5 * 8192 + 104, geometry), 5 * 8192 + 104);
  });

  it("measures a replica's lag from when the primary first passed what it replayed", () => {
    const positions = new PrimaryPositions();
    positions.add(100, 1_000);
    positions.add(200, 1_010);
    positions.add(150, 1_020); // never backwards
    positions.add(300, 1_012); // closer than 5 ms to the last: left out
    positions.add(400, 1_030);
    assert.equal(positions.lagMillis(400, 2_000), 0);
    assert.equal(positions.lagMillis(250, 2_000), 970);
    assert.equal(positions.lagMillis(150, 2_000), 990);
    assert.equal(positions.lagMillis(50, 2_000), 1_000);
  });
});

import { describe, expect, it } from 'vitest';
import { QBlock1Sets } from '../../../simulator/coap/q-block1-sets';

const tag = Uint8Array.of(1);
const block = (num: number, more = true) => ({ num, more, size: 1024 });

describe('QBlock1Sets: the device side of RFC 9177 payload sets', () => {
  it('stays silent in the middle of a set and answers its CON last block with 2.31 once every block is in', () => {
    const sets = new QBlock1Sets(4);
    expect([0, 1, 2].map((n) => sets.record('p', 'fw/data', tag, block(n), false, true))).toEqual([
      { kind: 'silent' },
      { kind: 'silent' },
      { kind: 'silent' },
    ]);
    expect(sets.record('p', 'fw/data', tag, block(3), true, true)).toEqual({ kind: 'continue', num: 3 });
  });

  it('lists the blocks of the set that are missing, in order, and says continue once the repair is in', () => {
    const sets = new QBlock1Sets(4);
    sets.record('p', 'fw/data', tag, block(4), false, true);
    // Block 5 never arrived; block 6 was outside the resource's receive window (not stored).
    sets.record('p', 'fw/data', tag, block(6), false, false);
    expect(sets.record('p', 'fw/data', tag, block(7), true, true)).toEqual({ kind: 'missing', blocks: [5, 6] });
    sets.record('p', 'fw/data', tag, block(5), false, true);
    expect(sets.record('p', 'fw/data', tag, block(6), true, true)).toEqual({ kind: 'continue', num: 6 });
  });

  it('answers NON payloads alone as RFC 9177 does: 4.08 at the end of an incomplete set, 2.31 from the one that completes it', () => {
    const sets = new QBlock1Sets(4);
    sets.record('p', 'x', tag, block(0), false, true);
    sets.record('p', 'x', tag, block(2), false, true);
    expect(sets.record('p', 'x', tag, block(3), false, true)).toEqual({ kind: 'missing', blocks: [1] });
    expect(sets.record('p', 'x', tag, block(1), false, true)).toEqual({ kind: 'continue', num: 3 });
    // A duplicate in a complete set is not answered again.
    expect(sets.record('p', 'x', tag, block(2), false, true)).toEqual({ kind: 'silent' });
  });

  it('ends the last set at the block with M = 0', () => {
    const sets = new QBlock1Sets(4);
    sets.record('p', 'x', tag, block(4), false, true);
    expect(sets.record('p', 'x', tag, block(5, false), true, true)).toEqual({ kind: 'continue', num: 5 });
  });

  it('starts over for another Request-Tag (another attempt) and keeps peers and paths apart', () => {
    const sets = new QBlock1Sets(4);
    for (const n of [0, 1, 2]) sets.record('p', 'x', tag, block(n), false, true);
    // The blocks of the first attempt do not count for the second.
    expect(sets.record('p', 'x', Uint8Array.of(2), block(3), true, true)).toEqual({
      kind: 'missing',
      blocks: [0, 1, 2],
    });
    expect(sets.record('q', 'x', tag, block(0), true, true)).toEqual({ kind: 'continue', num: 0 });
    expect(sets.record('p', 'y', tag, block(1), true, true)).toEqual({ kind: 'missing', blocks: [0] });
  });

  it('forgets everything on a reboot', () => {
    const sets = new QBlock1Sets(4);
    for (const n of [0, 1, 2]) sets.record('p', 'x', tag, block(n), false, true);
    sets.clear();
    expect(sets.record('p', 'x', tag, block(3), true, true)).toEqual({ kind: 'missing', blocks: [0, 1, 2] });
  });
});

import { bytesToHex } from '../hex';
import { Q_BLOCK_MAX_PAYLOADS, type BlockOption } from '../../protocol/coap';

/**
 * The payload-set size (MAX_PAYLOADS) the simulated device gives in GET /info unless told another.
 * Between two sets the wire waits a round trip and the device's answer, 2 to 17 ms on a loaded
 * machine against 134 ms for a set of 128 blocks at 1 MB/s: a 0.97 MB real image went at 0.82 of
 * the UDP model in sets of 128, 0.88 in sets of 256 and 0.90 in sets of 512 (medians of five runs,
 * interleaved, load average 16; docs/performance.md). The price is on loss: a block lost early in a
 * set makes the blocks beyond the receive window miss too, and they are sent again, so a loss costs
 * up to a set (half a second at 1 MB/s). Its bitmap is 64 bytes.
 */
export const SIMULATED_DEVICE_MAX_PAYLOADS = 512;

/** What the device answers to one Q-Block1 payload once its resource has stored (or refused) it. */
export type SetAnswer =
  /** 2.31: every block of the set up to `num` is in; the host sends on. */
  | { kind: 'continue'; num: number }
  /** 4.08 with application/missing-blocks+cbor-seq: these blocks of the set are not in. */
  | { kind: 'missing'; blocks: number[] }
  /** A NON payload in the middle of a set: no answer (RFC 9177 §4.4). */
  | { kind: 'silent' };

interface Body {
  /** The Request-Tag (hex; '' when the host sent none): another tag is another body. */
  tag: string;
  /** The payload set being received: blocks set × MAX_PAYLOADS … set × MAX_PAYLOADS + MAX_PAYLOADS − 1. */
  set: number;
  /** Blocks of that set the resource stored; at most MAX_PAYLOADS numbers, as a device's bitmap. */
  received: Set<number>;
  /** The set's first block not stored: every block before it is in. */
  firstMissing: number;
  /** NUM of the block with M = 0, once seen: the body's last block. */
  lastNum: number | undefined;
}

/**
 * The device's side of RFC 9177 Q-Block1 payload sets (docs/device-protocol.md 2.2), kept beside
 * the resources, which see ordinary Block1 blocks: for each peer and path, which blocks of the
 * current set are stored, and what to answer. A device needs this much memory for it: one bitmap of
 * MAX_PAYLOADS bits per upload, since the host sends a set only after the one before is complete.
 *
 * The answer is flow control only: the resource alone decides that an upload is complete (its own
 * contiguous offset and hash), so a wrong "continue" could cost a retransmission, never an image.
 */
export class QBlock1Sets {
  private readonly bodies = new Map<string, Body>();

  constructor(private readonly maxPayloads = Q_BLOCK_MAX_PAYLOADS) {}

  /**
   * Records one payload's fate (`stored`: the resource took it, now or before) and says what to
   * answer. A CON payload is always answered; a NON one only when it completes its set, or when it
   * is the set's last block and blocks are still missing.
   */
  record(
    peer: string,
    path: string,
    requestTag: Uint8Array | undefined,
    block: BlockOption,
    confirmable: boolean,
    stored: boolean,
  ): SetAnswer {
    const body = this.bodyFor(peer, path, requestTag, Math.floor(block.num / this.maxPayloads));
    if (!block.more) body.lastNum = block.num;
    const completeBefore = body.firstMissing > this.setEnd(body);
    if (stored) {
      body.received.add(block.num);
      while (body.received.has(body.firstMissing)) body.firstMissing++;
    }
    const setEnd = this.setEnd(body);
    if (confirmable) {
      const missing = this.missingUpTo(body, block.num === setEnd ? setEnd : block.num);
      return missing.length === 0 ? { kind: 'continue', num: block.num } : { kind: 'missing', blocks: missing };
    }
    const missing = this.missingUpTo(body, setEnd);
    if (missing.length === 0) return completeBefore ? { kind: 'silent' } : { kind: 'continue', num: setEnd };
    return block.num === setEnd ? { kind: 'missing', blocks: missing } : { kind: 'silent' };
  }

  /** A reboot: RAM is gone. */
  clear(): void {
    this.bodies.clear();
  }

  private bodyFor(peer: string, path: string, requestTag: Uint8Array | undefined, set: number): Body {
    const key = `${peer} ${path}`;
    const tag = requestTag === undefined ? '' : bytesToHex(requestTag);
    let body = this.bodies.get(key);
    if (body === undefined || body.tag !== tag) {
      body = { tag, set, received: new Set(), firstMissing: set * this.maxPayloads, lastNum: undefined };
      this.bodies.set(key, body);
    } else if (body.set !== set) {
      // The host moved to another set (it only does once this one was answered): start its bitmap.
      body.set = set;
      body.received.clear();
      body.firstMissing = set * this.maxPayloads;
    }
    return body;
  }

  private setEnd(body: Body): number {
    const end = body.set * this.maxPayloads + this.maxPayloads - 1;
    return body.lastNum === undefined ? end : Math.min(end, body.lastNum);
  }

  /** Blocks of the current set from its first up to `last` that are not in, ascending. */
  private missingUpTo(body: Body, last: number): number[] {
    const missing: number[] = [];
    // Every block before firstMissing is in: the common case (nothing lost) costs nothing.
    for (let num = body.firstMissing; num <= last; num++) if (!body.received.has(num)) missing.push(num);
    return missing;
  }
}

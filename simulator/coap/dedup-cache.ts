/**
 * RFC 7252 §4.5: remembers recent message ids per peer with the response bytes sent for them, so a
 * retransmitted CON gets the same ACK again and the request is not acted on twice. A request still
 * being handled is remembered without a response: its duplicates are ignored (the host retransmits
 * again, and by then the response is cached).
 */
export class DedupCache {
  private readonly peers = new Map<string, Map<number, Uint8Array | null>>();

  constructor(private readonly capacity: number) {}

  /** undefined: new message; null: in progress; bytes: the response to send again. */
  lookup(peer: string, messageId: number): Uint8Array | null | undefined {
    return this.peers.get(peer)?.get(messageId);
  }

  begin(peer: string, messageId: number): void {
    this.set(peer, messageId, null);
  }

  complete(peer: string, messageId: number, response: Uint8Array): void {
    this.set(peer, messageId, response);
  }

  /** The request was lost before it was acted on (a pulled cable): its retransmission is new. */
  forget(peer: string, messageId: number): void {
    this.peers.get(peer)?.delete(messageId);
  }

  clear(): void {
    this.peers.clear();
  }

  private set(peer: string, messageId: number, value: Uint8Array | null): void {
    let entries = this.peers.get(peer);
    if (entries === undefined) {
      entries = new Map();
      this.peers.set(peer, entries);
    }
    entries.delete(messageId);
    entries.set(messageId, value);
    while (entries.size > this.capacity) entries.delete(entries.keys().next().value!);
  }
}

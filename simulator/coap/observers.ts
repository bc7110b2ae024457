import { bytesToHex } from '../hex';

export interface Observer {
  peer: string;
  token: Uint8Array;
  path: string;
}

/** RFC 7641: who observes which resource, and the notification sequence number. */
export class ObserverRegistry {
  private readonly observers = new Map<string, Observer>();
  /** Message ids of recent notifications, so a RST from the host cancels the observation. */
  private readonly byMessageId = new Map<string, string>();
  private sequence = 0;

  add(observer: Observer): void {
    this.observers.set(keyOf(observer.peer, observer.token), observer);
  }

  remove(peer: string, token: Uint8Array): void {
    this.observers.delete(keyOf(peer, token));
  }

  /** A RST answering one of our notifications: the host is no longer interested. */
  rejected(peer: string, messageId: number): void {
    const key = this.byMessageId.get(`${peer}#${messageId}`);
    if (key !== undefined) this.observers.delete(key);
  }

  of(path: string): Observer[] {
    return [...this.observers.values()].filter((o) => o.path === path);
  }

  sent(observer: Observer, messageId: number): void {
    this.byMessageId.set(`${observer.peer}#${messageId}`, keyOf(observer.peer, observer.token));
    if (this.byMessageId.size > 256) this.byMessageId.delete(this.byMessageId.keys().next().value!);
  }

  /** RFC 7641 §4.4: 24-bit, increasing, so the host can order notifications. */
  nextSequence(): number {
    this.sequence = (this.sequence + 1) % 0x1000000;
    return this.sequence;
  }

  clear(): void {
    this.observers.clear();
    this.byMessageId.clear();
  }
}

function keyOf(peer: string, token: Uint8Array): string {
  return `${peer}|${bytesToHex(token)}`;
}

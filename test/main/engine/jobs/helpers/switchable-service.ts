import type { ConfirmationSender, OutboxEntry } from '../../../../../main/engine/outbox/outbox';
import { NetworkError } from '../../../../../main/cloud/errors';

/**
 * The service as a scripted test sees it: the test switches it off and on; while on it keeps the
 * confirmations the outbox sends it, while off every call fails as an unreachable service does.
 */
export class SwitchableService implements ConfirmationSender {
  up = true;
  readonly sent: OutboxEntry[] = [];

  /** Fails as the API client does when the service cannot be reached; a scripted operation calls it first. */
  reach(method: string, path: string): void {
    if (!this.up) throw new NetworkError('unreachable', { method, path });
  }

  async send(entry: OutboxEntry): Promise<boolean> {
    this.reach('POST', '/confirm');
    this.sent.push(entry);
    return true;
  }
}

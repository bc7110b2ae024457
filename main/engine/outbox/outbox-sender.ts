import type { ServiceClient } from '../../cloud';
import type { ConfirmationSender, OutboxEntry } from './outbox';
import { NoCredentialsError } from './outbox-entry';

/**
 * Sends outbox entries with the API client. Each entry names the service and organization it was
 * made for; `clientFor` returns a client holding the key for that pair, or undefined when there is
 * none now (logged out): the entry then waits and is retried, never sent elsewhere.
 */
export function clientConfirmationSender(
  clientFor: (serviceUrl: string, orgId: string) => ServiceClient | undefined,
): ConfirmationSender {
  return {
    async send(entry: OutboxEntry, signal: AbortSignal): Promise<boolean> {
      const client = clientFor(entry.serviceUrl, entry.orgId);
      if (!client) throw new NoCredentialsError(entry.serviceUrl, entry.orgId);
      // The outbox owns the retry schedule (it survives restarts); the transport must not add its own.
      const call = { signal, retry: false as const };
      // The entry's id is its idempotency key: the service records the entry once, whichever of
      // its retries (through whichever instance) gets there first.
      return entry.kind === 'firmware'
        ? client.devices.confirmApplyFirmware(entry.serialNumber, entry.payload, call, entry.id)
        : client.devices.confirmApplyConfiguration(entry.serialNumber, entry.payload, call, entry.id);
    },
  };
}

import type { SafetyStatus } from '../../../protocol/safety';
import { observeSafety, type LinkFactoryDeps } from '../../devices';

/**
 * One device's safety function watched over its link: the status when the watch began, then each
 * change as the device notifies it, timed on this computer's monotonic clock when it arrived. The
 * link, identify and the observation are the device operation's (main/devices/operations/safety.ts);
 * this hands each change to whoever listens.
 */
export interface SafetyWatch {
  readonly serialNumber: string;
  readonly first: SafetyStatus;
  /** Calls `listener` for each notification (status and the moment it arrived, performance.now()). */
  onChange(listener: (status: SafetyStatus, atMs: number) => void): void;
  close(): Promise<void>;
}

export async function watchSafety(
  device: { serialNumber: string; link: string },
  options: { linkDeps?: LinkFactoryDeps; signal?: AbortSignal } = {},
): Promise<SafetyWatch> {
  const observation = await observeSafety(device, options);
  const listeners: ((status: SafetyStatus, atMs: number) => void)[] = [];
  const pump = (async () => {
    try {
      for await (const { status, atMs } of observation.changes)
        for (const listener of listeners) listener(status, atMs);
    } catch {
      // The link went away (or the device said something else): the test sees no more changes from this device, and says so.
    }
  })();
  return {
    serialNumber: observation.serialNumber,
    first: observation.first,
    onChange: (listener) => listeners.push(listener),
    async close() {
      await observation.close();
      await pump;
    },
  };
}

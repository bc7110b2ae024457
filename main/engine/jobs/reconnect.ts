import { abortReason } from '../../devices/errors';
import { delay } from '../../devices/util/delay';
import type { DeviceConnector, DeviceConnection, DeviceTarget } from './device-port';
import type { ReconnectPolicy } from './context';
import { JobFailure } from './failure';

/**
 * Waits for a device that went away (pulled cable, reboot) to answer again on its target, and
 * checks that it is the same device: a different device plugged into the same port must never
 * receive the rest of an upload.
 */
export async function reconnectSameDevice(
  connector: DeviceConnector,
  target: DeviceTarget,
  serialNumber: string,
  policy: Pick<ReconnectPolicy, 'waitMs' | 'pollMs'>,
  signal?: AbortSignal,
): Promise<DeviceConnection> {
  const deadline = performance.now() + policy.waitMs;
  let lastError: unknown;
  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    try {
      const session = await connector.connect(target, { signal });
      if (session.identity.serialNumber === serialNumber) return session;
      await session.close().catch(() => undefined);
      throw new JobFailure(
        'DIFFERENT_DEVICE',
        `${session.identity.serialNumber} answered on ${session.link} where ${serialNumber} was; nothing more was sent. Plug ${serialNumber} in again`,
      );
    } catch (error) {
      if (error instanceof JobFailure || signal?.aborted) throw error;
      lastError = error;
    }
    if (performance.now() + policy.pollMs > deadline) break;
    await delay(policy.pollMs, signal);
  }
  throw new JobFailure(
    'DEVICE_GONE',
    `${serialNumber} did not come back within ${Math.round(policy.waitMs / 1000)} s (${lastError instanceof Error ? lastError.message : String(lastError)})`,
    true,
    'plug it in again and run the same command to resume',
  );
}

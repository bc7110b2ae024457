import { CODE } from '../../../protocol/coap/parameters';
import type { DeviceSession } from '../session';
import { identify } from './identify';
import { isLinkLoss } from './link-loss';
import type { DeviceInfo } from './payloads';
import { waitForReboot } from './wait-for-device';

/** POST /reboot and wait until the device is back (new bootId). */
export async function reboot(
  session: DeviceSession,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<DeviceInfo> {
  const before = await identify(session, { signal: options.signal });
  try {
    await session.engine.request({ method: CODE.POST, path: 'reboot', step: 'reboot', signal: options.signal });
  } catch (error) {
    // The answer can be lost to the reboot itself; whether it happened shows in the bootId.
    if (!isLinkLoss(error)) throw error;
  }
  return waitForReboot(session, {
    previousBootId: before.bootId,
    step: 'reboot',
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
}

import { DeviceDisconnectedError, DeviceTimeoutError } from '../errors';
import { LinkClosedError } from '../links/link';

/**
 * Errors after which the device may well be fine and the host should reconnect and look: the link
 * dropped (cable, reboot, BLE; a send racing the close throws LinkClosedError) or the device
 * stopped answering for a while (stall, reboot). The device operations reconnect on the same link
 * after these; the jobs look for a device named by serial number on every link.
 */
export function isLinkLoss(error: unknown): boolean {
  return (
    error instanceof DeviceDisconnectedError || error instanceof DeviceTimeoutError || error instanceof LinkClosedError
  );
}

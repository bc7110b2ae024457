import { DeviceDisconnectedError, DeviceTimeoutError } from '../errors';

/**
 * Errors after which the device may well be fine and the host should reconnect and look: the link
 * dropped (cable, reboot, BLE) or the device stopped answering for a while (stall, reboot).
 */
export function isLinkLoss(error: unknown): boolean {
  return error instanceof DeviceDisconnectedError || error instanceof DeviceTimeoutError;
}

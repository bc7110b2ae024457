import { DeviceError, DeviceTimeoutError, DeviceVerificationError } from '../errors';
import { DEVICE_ERROR } from '../../../protocol/constants';
import type { DeviceSession } from '../session';
import { delay } from '../util/delay';
import { identify } from './identify';
import type { DeviceInfo } from './payloads';

export interface WaitForDeviceOptions {
  /** Names the wait in a timeout: 'firmware apply' gives "did not come back from firmware apply". */
  step: string;
  /** Keep waiting until the device's info satisfies this (default: any answer). */
  until?: (info: DeviceInfo) => boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Reopens the link as often as needed (serial: the same path once the device has re-enumerated;
 * BLE: once it advertises again; UDP: always open) and polls GET /info until the same device
 * answers as `until` wants. Gives up with a DeviceTimeoutError naming the device and the step.
 */
export async function waitForDevice(session: DeviceSession, options: WaitForDeviceOptions): Promise<DeviceInfo> {
  const timeoutMs = options.timeoutMs ?? session.reconnectTimeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DeviceTimeoutError(
          session.context(options.step),
          0,
          'come back from',
          `within ${Math.round(timeoutMs / 100) / 10} s`,
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => controller.abort(options.signal!.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  try {
    for (;;) {
      signal.throwIfAborted();
      if (!session.link.isOpen) {
        try {
          await session.link.open(signal);
        } catch {
          signal.throwIfAborted();
          await delay(session.pollIntervalMs, signal);
          continue;
        }
      }
      try {
        const info = await identify(session, { signal, maxRetransmit: 1 });
        if (!options.until || options.until(info)) return info;
      } catch (error) {
        signal.throwIfAborted();
        // Another device on the link, or an answer that is not the protocol: waiting will not help.
        if (error instanceof DeviceVerificationError) throw error;
        if (error instanceof DeviceError && error.code !== DEVICE_ERROR.busy) throw error;
      }
      await delay(session.pollIntervalMs, signal);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Waits until the device answers with another bootId than `previousBootId`: it has rebooted. */
export function waitForReboot(
  session: DeviceSession,
  options: { previousBootId: DeviceInfo['bootId']; step?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<DeviceInfo> {
  return waitForDevice(session, {
    step: options.step ?? 'reboot',
    until: (info) => info.bootId !== options.previousBootId,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
}

import { encodeSystemReset, VENDOR_CONTENT_FORMAT, VENDOR_RESOURCE } from '../../../protocol/vendor';
import type { VendorFamily } from '../../../domain/vendor/running-values';
import { DeviceError, DeviceTimeoutError, DeviceVerificationError } from '../errors';
import { isLinkLoss } from '../operations/link-loss';
import type { DeviceSession } from '../session';
import { delay } from '../util/delay';
import { identifyVendor, type VendorIdentifyOptions, type VendorIdentity } from './identify';
import { vendorPost } from './requests';

export interface VendorWaitOptions extends Pick<VendorIdentifyOptions, 'knownType'> {
  /** Names the wait in a timeout: 'firmware install'. */
  step: string;
  /** Keep waiting until the device's identity satisfies this (default: any answer). */
  until?: (identity: VendorIdentity) => boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Reopens the link as often as needed (a USB device re-enumerates after a reset; UDP is always
 * open) and asks who the device is until it answers as `until` wants. A vendor device has no boot
 * counter, so what it runs afterwards is what tells that a restart happened.
 */
export async function waitForVendorDevice(
  session: DeviceSession,
  family: VendorFamily,
  options: VendorWaitOptions,
): Promise<VendorIdentity> {
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
  let last: VendorIdentity | undefined;
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
        last = await identifyVendor(session, family, { signal, maxRetransmit: 1, knownType: options.knownType });
        if (!options.until || options.until(last)) return last;
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof DeviceVerificationError) throw error;
        // Restarting: not answering, or answering 5.03 for a while, is expected.
        if (!isLinkLoss(error) && !(error instanceof DeviceError && error.coapCode.startsWith('5.'))) throw error;
      }
      await delay(session.pollIntervalMs, signal);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * POST cfg/setup/systemReset `n` (CF 0, as the vendor's CLI sends it). The device answers before it
 * resets; an answer lost to the reset itself is no failure.
 */
export async function requestSystemReset(session: DeviceSession, signal?: AbortSignal): Promise<void> {
  try {
    await vendorPost(session, VENDOR_RESOURCE.systemReset, encodeSystemReset('normal'), {
      contentFormat: VENDOR_CONTENT_FORMAT.text,
      signal,
      step: 'restart (systemReset)',
    });
  } catch (error) {
    if (!isLinkLoss(error)) throw error;
  }
}

/** Resets the device and waits until it answers again as `until` wants. */
export async function resetVendorDevice(
  session: DeviceSession,
  family: VendorFamily,
  options: VendorWaitOptions,
): Promise<VendorIdentity> {
  await requestSystemReset(session, options.signal);
  // Give the device the moment it takes to go down, so the first answer is not its last one before.
  await delay(Math.max(session.pollIntervalMs, 100), options.signal);
  return waitForVendorDevice(session, family, options);
}

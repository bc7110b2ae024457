import { decodeCbor } from '../../../domain/files/cbor';
import { SAFETY_RESOURCE, safetyStatusSchema, type SafetyStatus } from '../../../protocol/safety';
import { createLink, DeviceSession, identify, parseLinkSpec, type LinkFactoryDeps } from '../../devices';
import { observe, type Observation } from '../../devices/coap';

/**
 * One device's safety function watched over its link: the status when the watch began, then each
 * change as the device notifies it, timed on this computer's monotonic clock when it arrived.
 */
export interface SafetyWatch {
  readonly serialNumber: string;
  readonly first: SafetyStatus;
  /** Calls `listener` for each notification (status and the moment it arrived, performance.now()). */
  onChange(listener: (status: SafetyStatus, atMs: number) => void): void;
  close(): Promise<void>;
}

function parseStatus(payload: Uint8Array, serialNumber: string): SafetyStatus {
  const parsed = safetyStatusSchema.safeParse(decodeCbor(payload));
  if (!parsed.success)
    throw new Error(
      `${serialNumber} answered /${SAFETY_RESOURCE} with something that is not its safety status (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
    );
  return parsed.data;
}

export async function watchSafety(
  device: { serialNumber: string; link: string },
  options: { linkDeps?: LinkFactoryDeps; signal?: AbortSignal } = {},
): Promise<SafetyWatch> {
  const session = await DeviceSession.open(createLink(parseLinkSpec(device.link), options.linkDeps), {
    expectedSerialNumber: device.serialNumber,
  });
  let observation: Observation;
  try {
    const info = await identify(session, { ...(options.signal ? { signal: options.signal } : {}) });
    if (info.serialNumber !== device.serialNumber)
      throw new Error(`${device.link} answers as ${info.serialNumber}, not ${device.serialNumber}.`);
    observation = await observe(session.engine, {
      path: SAFETY_RESOURCE,
      step: 'safety function observation',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!observation.first.code.startsWith('2.')) {
      throw new Error(
        `${device.serialNumber} has no safety function to test (it answered /${SAFETY_RESOURCE} with ${observation.first.code}); update its firmware first.`,
      );
    }
  } catch (error) {
    await session.close();
    throw error;
  }
  const first = parseStatus(observation.first.message.payload, device.serialNumber);
  const listeners: ((status: SafetyStatus, atMs: number) => void)[] = [];
  const pump = (async () => {
    let skippedFirst = false;
    try {
      for await (const response of observation) {
        // The iteration starts with the registration's response, already read as `first`.
        if (!skippedFirst) {
          skippedFirst = true;
          continue;
        }
        const at = performance.now();
        const status = parseStatus(response.message.payload, device.serialNumber);
        for (const listener of listeners) listener(status, at);
      }
    } catch {
      // The link went away: the test sees no more changes from this device, and says so.
    }
  })();
  return {
    serialNumber: device.serialNumber,
    first,
    onChange: (listener) => listeners.push(listener),
    async close() {
      await observation.cancel().catch(() => undefined);
      await session.close().catch(() => undefined);
      await pump;
    },
  };
}

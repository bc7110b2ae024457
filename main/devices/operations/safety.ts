import { decodeCbor } from '../../../domain/files/cbor';
import { SAFETY_RESOURCE, safetyStatusSchema, type SafetyStatus } from '../../../protocol/safety';
import { observe, type Observation } from '../coap/observe';
import { createLink, parseLinkSpec, type LinkFactoryDeps } from '../links/link-spec';
import { DeviceSession } from '../session';
import { identify } from './identify';

/** One notification of the safety resource, timed on this computer's monotonic clock when it arrived. */
export interface SafetyChange {
  status: SafetyStatus;
  /** performance.now() when the notification was read off the link. */
  atMs: number;
}

/**
 * A device's safety resource observed over a link this operation opened for it (the function
 * test's watch): the status at registration, then each change as the device notifies it.
 */
export interface SafetyObservation {
  readonly serialNumber: string;
  readonly first: SafetyStatus;
  /**
   * Each notification after `first`, until the link goes away or close(). Read once: it ends
   * quietly with the observation and throws for a payload that is not a safety status.
   */
  readonly changes: AsyncIterable<SafetyChange>;
  /** Cancels the observation and closes the link. */
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

/**
 * Opens the device's link, checks it is the device named (GET /info) and observes /safety on it.
 * The link is the observation's own: close() ends both. A device without the safety resource (a
 * firmware from before it) is refused with what to do.
 */
export async function observeSafety(
  device: { serialNumber: string; link: string },
  options: { linkDeps?: LinkFactoryDeps; signal?: AbortSignal } = {},
): Promise<SafetyObservation> {
  const session = await DeviceSession.open(createLink(parseLinkSpec(device.link), options.linkDeps), {
    expectedSerialNumber: device.serialNumber,
  });
  const signal = options.signal ? { signal: options.signal } : {};
  let observation: Observation;
  try {
    const info = await identify(session, signal);
    if (info.serialNumber !== device.serialNumber)
      throw new Error(`${device.link} answers as ${info.serialNumber}, not ${device.serialNumber}.`);
    observation = await observe(session.engine, {
      path: SAFETY_RESOURCE,
      step: 'safety function observation',
      ...signal,
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
  const registered = observation;
  async function* changes(): AsyncGenerator<SafetyChange> {
    let skippedFirst = false;
    for await (const response of registered) {
      // The iteration starts with the registration's response, already read as `first`.
      if (!skippedFirst) {
        skippedFirst = true;
        continue;
      }
      const atMs = performance.now();
      yield { status: parseStatus(response.message.payload, device.serialNumber), atMs };
    }
  }
  return {
    serialNumber: device.serialNumber,
    first,
    changes: changes(),
    async close() {
      await registered.cancel().catch(() => undefined);
      await session.close().catch(() => undefined);
    },
  };
}

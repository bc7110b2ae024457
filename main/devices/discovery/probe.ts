import { createLink, parseLinkSpec, type LinkFactoryDeps, type LinkSpec } from '../links/link-spec';
import { identify } from '../operations/identify';
import type { DeviceInfo } from '../operations/payloads';
import { PortInUseError, type PortInUse } from '../links/port-turns';
import { DeviceSession } from '../session';
import {
  createVendorLink,
  detectProtocol,
  identifyVendor,
  readHeldConfig,
  vendorFamilyOf,
  type DeviceProtocol,
  type VendorIdentity,
} from '../vendor';

/**
 * A vendor device's identity in the fields of GET /info, so that lists and jobs read both kinds of
 * device alike. It answers one block at a time and has no boot id (docs/vendor-devices.md).
 */
export function vendorInfo(identity: VendorIdentity, configSyncId: string | null): DeviceInfo {
  return {
    protocol: 0,
    serialNumber: identity.serialNumber,
    deviceType: identity.deviceType,
    model: identity.model,
    firmwareVersion: identity.firmwareVersion,
    configSyncId,
    maxBlockSize: 1024,
    maxInFlight: 1,
    bootId: 'vendor',
    state: 'idle',
  };
}

export interface ProbeOptions {
  /** How the link is opened (tests: a mock serial port opener, a simulated BLE central). */
  linkDeps?: LinkFactoryDeps;
  /** ACK timeout of GET /info: short where a port that is not one of our devices should not hold a list up. */
  ackTimeoutMs?: number;
  /** The whole probe, opening included (a BLE device out of range is otherwise looked for forever). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A serial port another link of this process holds: fail at once (the default: a list does not wait for a job) or wait for it. */
  whenPortInUse?: PortInUse;
}

/**
 * What asking one link gave: the device's GET /info (for a device that speaks the vendor's protocol,
 * the same fields read from its cfg/… resources: vendorInfo), or why nothing answered.
 */
export type ProbeResult = { link: string; linkKind: LinkSpec['kind'] } & (
  | { info: DeviceInfo; error: null; protocol: DeviceProtocol }
  | { info: null; error: string; protocol?: DeviceProtocol; inUse?: boolean }
);

/**
 * Opens the link, asks GET /info with one retransmission, closes it. A link that is not written
 * as a link (parseLinkSpec refuses it) is the caller's mistake and throws; a link on which nothing
 * speaks the protocol resolves with the reason. A serial port a job of this process holds is not
 * waited for unless asked: the result says it is in use (`inUse`), and nothing was sent on it.
 */
export async function probeLink(link: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const spec = parseLinkSpec(link);
  const linkDeps = { ...options.linkDeps, whenPortInUse: options.whenPortInUse ?? 'fail' };
  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  let session: DeviceSession | undefined;
  try {
    const protocol = await detectProtocol(link, { linkDeps, ackTimeoutMs: options.ackTimeoutMs, signal });
    if (protocol === 'vendor') {
      const opened = createVendorLink(spec, linkDeps);
      await opened.open(signal);
      session = new DeviceSession(opened, { ackTimeoutMs: options.ackTimeoutMs });
      const family = vendorFamilyOf(spec);
      const identity = await identifyVendor(session, family, { signal, maxRetransmit: 1 });
      const held = await readHeldConfig(session, family, signal);
      return { link, linkKind: spec.kind, info: vendorInfo(identity, held.syncId), error: null, protocol };
    }
    const opened = createLink(spec, linkDeps);
    await opened.open(signal);
    session = new DeviceSession(opened, { ackTimeoutMs: options.ackTimeoutMs });
    const info = await identify(session, { signal, maxRetransmit: 1 });
    return { link, linkKind: spec.kind, info, error: null, protocol: 'provisioner' };
  } catch (error) {
    if (error instanceof PortInUseError)
      return { link, linkKind: spec.kind, info: null, error: error.message, inUse: true };
    const reason = timeout?.aborted
      ? 'no answer to the info request'
      : error instanceof Error
        ? error.message
        : String(error);
    return { link, linkKind: spec.kind, info: null, error: reason };
  } finally {
    await session?.close().catch(() => undefined);
  }
}

import { createLink, parseLinkSpec, type LinkFactoryDeps, type LinkSpec } from '../links/link-spec';
import { identify } from '../operations/identify';
import type { DeviceInfo } from '../operations/payloads';
import { DeviceSession } from '../session';

export interface ProbeOptions {
  /** How the link is opened (tests: a mock serial port opener, a simulated BLE central). */
  linkDeps?: LinkFactoryDeps;
  /** ACK timeout of GET /info: short where a port that is not one of our devices should not hold a list up. */
  ackTimeoutMs?: number;
  /** The whole probe, opening included (a BLE device out of range is otherwise looked for forever). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What asking one link gave: the device's GET /info, or why nothing answered. */
export type ProbeResult = { link: string; linkKind: LinkSpec['kind'] } & ({ info: DeviceInfo; error: null } | { info: null; error: string });

/**
 * Opens the link, asks GET /info with one retransmission, closes it. A link that is not written
 * as a link (parseLinkSpec refuses it) is the caller's mistake and throws; a link on which nothing
 * speaks the protocol resolves with the reason.
 */
export async function probeLink(link: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const spec = parseLinkSpec(link);
  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  let session: DeviceSession | undefined;
  try {
    const opened = createLink(spec, options.linkDeps);
    await opened.open(signal);
    session = new DeviceSession(opened, { ackTimeoutMs: options.ackTimeoutMs });
    const info = await identify(session, { signal, maxRetransmit: 1 });
    return { link, linkKind: spec.kind, info, error: null };
  } catch (error) {
    const reason = timeout?.aborted ? 'no answer to the info request' : error instanceof Error ? error.message : String(error);
    return { link, linkKind: spec.kind, info: null, error: reason };
  } finally {
    await session?.close().catch(() => undefined);
  }
}

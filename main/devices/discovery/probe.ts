import { formatLinkSpec, type LinkSpec } from '../links/link-spec';
import type { Link } from '../links/link';
import { identify } from '../operations/identify';
import { DeviceSession } from '../session';
import { discoveredFrom, type DiscoveredDevice } from './discovered-device';

export interface ProbeOptions {
  /** A quick ACK timeout: a port that is not one of our devices should not hold the list up. */
  ackTimeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Opens the link, asks GET /info with one retransmission, closes it. Resolves with the device, or
 * undefined when nothing on the link speaks the protocol.
 */
export async function probeLink(link: Link, spec: LinkSpec, options: ProbeOptions = {}): Promise<DiscoveredDevice | undefined> {
  try {
    await link.open(options.signal);
  } catch {
    return undefined;
  }
  const session = new DeviceSession(link, { ackTimeoutMs: options.ackTimeoutMs });
  try {
    const info = await identify(session, { signal: options.signal, maxRetransmit: 1 });
    return discoveredFrom(info, formatLinkSpec(spec), link.kind);
  } catch {
    return undefined;
  } finally {
    await session.close().catch(() => undefined);
  }
}

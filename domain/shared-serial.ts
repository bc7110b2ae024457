/**
 * Two attached devices that claim one serial number. A serial number names one safety device; when
 * two answer with it at once (a copy: a rogue or mis-programmed device, on any link), neither is
 * known to be the real one. What either reports must not be confirmed to the service (it would
 * speak for the real device, e.g. record a provisioned device as behind), and no job may start on
 * either (its confirmation would speak for the real serial). The core's observations, the
 * Workbench and the CLI all ask this one rule. Pure: no I/O.
 */

/** What the rule needs of an attached device: who it says it is, and where it answers. */
export interface SerialClaim {
  /** null for a device that has not said who it is: it claims nothing. */
  serialNumber: string | null;
  /** How it is reached, e.g. 'serial:/dev/ttyACM0', 'ble:…'. */
  link: string;
}

/** Every serial number two or more of these devices claim at once, with the links that claim it (in list order). */
export function sharedSerials(attached: readonly SerialClaim[]): Map<string, string[]> {
  const links = new Map<string, string[]>();
  for (const device of attached) {
    if (device.serialNumber === null) continue;
    const seen = links.get(device.serialNumber);
    if (seen) {
      if (!seen.includes(device.link)) seen.push(device.link);
    } else links.set(device.serialNumber, [device.link]);
  }
  for (const [serial, claimedBy] of links) if (claimedBy.length < 2) links.delete(serial);
  return links;
}

/**
 * The devices among `devices` whose reading may be believed: none whose serial number another
 * attached device claims too. `attached` is the whole list attached now (`devices` may be a part).
 */
export function believableDevices<D extends SerialClaim>(devices: readonly D[], attached: readonly SerialClaim[]): D[] {
  const shared = sharedSerials(attached);
  return devices.filter((d) => d.serialNumber === null || !shared.has(d.serialNumber));
}

/** The technician's reason why `serialNumber` may not be believed now (another device claims it too), or null; `shared` is sharedSerials of the attached list. */
export function sharedSerialRefusal(
  shared: ReadonlyMap<string, readonly string[]>,
  serialNumber: string,
): string | null {
  const claimedBy = shared.get(serialNumber);
  return claimedBy ? sharedSerialReason(serialNumber, claimedBy) : null;
}

const COUNT_WORDS = ['', 'One', 'Two', 'Three', 'Four', 'Five'];

/** The technician's words for a shared serial number: what is wrong, what it holds back, how to end it. */
export function sharedSerialReason(serialNumber: string, links: readonly string[]): string {
  const count = COUNT_WORDS[links.length] ?? String(links.length);
  return `${count} attached devices claim serial ${serialNumber} (${links.join(', ')}). Nothing is sent to the service for it, and no job can start, until one is unplugged.`;
}

import { COMM_INTERFACE_FLAGS, type CommInterfaceFlag } from './enums';

/**
 * A device's commInterface: flags joined by commas in the fixed order of COMM_INTERFACE_FLAGS
 * (None, BLE, ISM, Ethernet, Wifi), e.g. 'BLE,Ethernet'. Payloads also send lower-case flags,
 * other orders and spaces ('ethernet,ble', ' Wifi '); those normalize to this form.
 */
export type CommInterface = string;

export type CommInterfaceParse =
  | { ok: true; value: CommInterface; flags: CommInterfaceFlag[] }
  | { ok: false; code: 'INVALID_COMM_INTERFACE' | 'COMM_INTERFACE_NONE_COMBINED'; message: string };

const ACCEPTED = `${COMM_INTERFACE_FLAGS.join(', ')}, or several of BLE, ISM, Ethernet and Wifi joined by commas (e.g. 'BLE,Ethernet')`;

export function parseCommInterface(text: string): CommInterfaceParse {
  const parts = text.split(',').map((part) => part.trim());
  const flags = new Set<CommInterfaceFlag>();
  for (const part of parts) {
    const flag = COMM_INTERFACE_FLAGS.find((f) => f.toLowerCase() === part.toLowerCase());
    if (flag === undefined) {
      const shown = part === '' ? 'an empty entry' : `'${part}'`;
      return {
        ok: false,
        code: 'INVALID_COMM_INTERFACE',
        message: `Communication interface '${text}' contains ${shown}: use ${ACCEPTED}.`,
      };
    }
    flags.add(flag);
  }
  if (flags.has('None') && flags.size > 1) {
    return {
      ok: false,
      code: 'COMM_INTERFACE_NONE_COMBINED',
      message: `Communication interface '${text}' combines None with other interfaces: use None alone, or list only the interfaces the device uses.`,
    };
  }
  const ordered = COMM_INTERFACE_FLAGS.filter((f) => flags.has(f));
  return { ok: true, value: ordered.join(','), flags: ordered };
}

/** The flags of a stored (canonical) commInterface; [] when unset or None. Never throws. */
export function commInterfaceFlags(value: CommInterface | null | undefined): CommInterfaceFlag[] {
  if (value === null || value === undefined) return [];
  const parsed = parseCommInterface(value);
  return parsed.ok ? parsed.flags.filter((f) => f !== 'None') : [];
}

export function formatCommInterface(flags: readonly CommInterfaceFlag[]): CommInterface {
  const wanted = new Set(flags);
  if (wanted.size === 0) return 'None';
  return COMM_INTERFACE_FLAGS.filter((f) => wanted.has(f)).join(',');
}

/** Ethernet or Wifi: the device is reached with CoAP over UDP and needs IP settings. */
export function usesIp(value: CommInterface | null | undefined): boolean {
  const flags = commInterfaceFlags(value);
  return flags.includes('Ethernet') || flags.includes('Wifi');
}

/**
 * `cfg/setup/systemReset` payloads (vendor spec §4, §5.7): `n` reboots normally, `b` into the
 * bootloader, and an empty payload (the vendor's menu, no Content-Format) is a normal reboot.
 */
export type SystemResetKind = 'normal' | 'bootloader';

export const SYSTEM_RESET_PAYLOAD: Record<SystemResetKind, string> = { normal: 'n', bootloader: 'b' };

export function encodeSystemReset(kind: SystemResetKind): Uint8Array {
  return new TextEncoder().encode(SYSTEM_RESET_PAYLOAD[kind]);
}

/** The kind of reset a payload asks for, or undefined when it asks for none the device knows. */
export function decodeSystemReset(payload: Uint8Array): SystemResetKind | undefined {
  const text = new TextDecoder().decode(payload).trim();
  if (text === '' || text === 'n') return 'normal';
  if (text === 'b') return 'bootloader';
  return undefined;
}

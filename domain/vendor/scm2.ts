import { z } from 'zod';
import { isIpv4Address, isNetmask } from '../ipv4';

/**
 * The vendor's configuration object, "scm2" (FORT Manager schema; vendor spec §8.3), with the value
 * rules of vendor spec §9 that apply to it. It travels inside the vendor's secure-config map as
 * `config-data` = CBOR of `{ body: { scm2: Scm2Config }, ... }` (secure-config.ts).
 *
 * Missing interface keys read as null (the vendor's files write them as null); unknown keys are
 * dropped. Where the vendor's own validator and its device validators disagree, the stricter rule
 * of §9 is taken (safety ids 1..0x7FF7 rather than any u16), so a file we accept is one the device
 * would take.
 */

/** Transmit powers the ISM radio takes, in dBm (§9). */
export const ISM_POWERS_DBM = [-20, -15, -10, -5, 0, 2, 5, 8, 11, 14, 17, 20, 23, 27] as const;
/** CAN bit rates in bit/s (§9); scm2 writes them in kbit/s. */
export const CAN_BITRATES = [10000, 20000, 50000, 125000, 250000, 500000, 800000, 1000000] as const;
/** Safety device and care ids (§9): 1..0x7FF7. */
export const SAFETY_ID_MAX = 0x7ff7;
export const ISM_CONNECTION_MODES = ['Remote', 'Base', 'TDMA-Base', 'TDMA-Remote'] as const;
/** scm2's CAN mode; 'Disabled' is the vendor tool's word for the device's 'none'. */
export const SCM2_CAN_MODES = ['Disabled', 'none', 'canopen', 'j1939'] as const;
export const PEER_DEVICE_TYPES = ['EPC', 'FRC', 'NSC'] as const;
/** The own interfaces of which exactly one is set (the vendor validator's rule). */
export const SCM2_INTERFACES = ['blue0', 'ism0', 'eth0', 'wlan0'] as const;
export type Scm2Interface = (typeof SCM2_INTERFACES)[number];

const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;
/** Peer names and FRC serial numbers (§9). */
export const VENDOR_NAME = /^[0-9A-Za-z ]{1,8}$/;

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number from ${min} to ${max}` })
    .int({ error: `${label} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${label} must be from ${min} to ${max}` })
    .max(max, { error: `${label} must be from ${min} to ${max}` });
const ipv4 = (label: string) =>
  z.string().refine(isIpv4Address, { error: `${label} must be a dotted IPv4 address such as 192.168.3.10` });
const mac = z
  .string()
  .regex(MAC, { error: 'a MAC address is six hex pairs separated by colons, e.g. aa:bb:cc:dd:ee:ff' });
/** A key the vendor writes as null when unused; absent reads as null too. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

const safe = z
  .object({
    ioDirection: z.enum(['Out', 'In'], { error: 'ioDirection must be "Out" or "In"' }),
    safetyTimeout: int('safetyTimeout (ms)', 250, 2000),
    safetyRate: z.union([z.literal(25), z.literal(50)], { error: 'safetyRate must be 25 or 50 (ms)' }),
    deviceId: int('SAFE.deviceId', 1, SAFETY_ID_MAX),
    careId: z.array(int('a careId', 1, SAFETY_ID_MAX)),
  })
  .refine((s) => s.safetyRate <= s.safetyTimeout / 10, {
    error:
      'safetyRate must be at most a tenth of safetyTimeout (a 250 ms timeout takes 25 ms, 500 ms or more takes 50 ms)',
    path: ['safetyRate'],
  });

const ism0 = z.object({
  radio_id: int('ism0.radio_id', 1, 65535),
  network_id: int('ism0.network_id', 1, 65535),
  txpwr: z.number().refine((p) => (ISM_POWERS_DBM as readonly number[]).includes(p), {
    error: `txpwr must be one of ${ISM_POWERS_DBM.join(', ')} (dBm)`,
  }),
  txChannel: int('txChannel', 1, 26),
  connMode: z.enum(ISM_CONNECTION_MODES, { error: `connMode must be one of ${ISM_CONNECTION_MODES.join(', ')}` }),
});

const ipSettings = {
  ip4: ipv4('ip4'),
  netmask4: z.string().refine(isNetmask, { error: 'netmask4 must be a netmask such as 255.255.255.0' }),
  gateway4: optional(ipv4('gateway4')),
  nameservers4: z.array(ipv4('a nameservers4 entry')).default([]),
  isDHCP: z.boolean({ error: 'isDHCP must be true or false' }),
};

const can0 = z.object({
  bitrate: z.number().refine((kbit) => (CAN_BITRATES as readonly number[]).includes(kbit * 1000), {
    error: `can0.bitrate is in kbit/s and must be one of ${CAN_BITRATES.map((b) => b / 1000).join(', ')}`,
  }),
  mode: z.enum(SCM2_CAN_MODES, { error: `can0.mode must be one of ${SCM2_CAN_MODES.join(', ')}` }),
});

const peer = z
  .object({
    name: z.string().regex(VENDOR_NAME, { error: 'a peer name is 1 to 8 letters, digits or spaces' }),
    deviceId: int('peer deviceId', 1, 65535),
    deviceType: z.enum(PEER_DEVICE_TYPES, { error: `a peer deviceType is one of ${PEER_DEVICE_TYPES.join(', ')}` }),
    blue0: optional(z.object({ mac })),
    ism0: optional(int('peer ism0 (its radio id)', 1, 65535)),
    eth0: optional(z.object({ ip4: ipv4('peer eth0.ip4') })),
    wlan0: optional(z.object({ ip4: ipv4('peer wlan0.ip4') })),
  })
  .refine((p) => SCM2_INTERFACES.filter((i) => p[i] !== null).length === 1, {
    error: 'a peer has exactly one of blue0, ism0, eth0, wlan0 set',
  });

const net = z
  .object({
    blue0: optional(z.object({ mac })),
    ism0: optional(ism0),
    eth0: optional(z.object(ipSettings)),
    wlan0: optional(
      z.object({
        ...ipSettings,
        ssid: z.string(),
        ssidPwd: z.string(),
        wpa_supplicantEn: z.boolean({ error: 'wpa_supplicantEn must be true or false' }),
        hostapdEn: z.boolean({ error: 'hostapdEn must be true or false' }),
      }),
    ),
    can0: optional(can0),
    peers: z.record(z.string(), peer).default({}),
  })
  .refine((n) => SCM2_INTERFACES.filter((i) => n[i] !== null).length === 1, {
    error: 'NET has exactly one of blue0, ism0, eth0, wlan0 set',
  });

export const scm2Schema = z.object({ SAFE: safe, NET: net });

/** The `{ SAFE, NET }` object of scm2, checked. */
export type Scm2Config = z.output<typeof scm2Schema>;
/** What may be handed to parseScm2 (absent interfaces, no peers). */
export type Scm2Input = z.input<typeof scm2Schema>;
export type Scm2Peer = Scm2Config['NET']['peers'][string];

/** A scm2 object that breaks the schema or the vendor's value rules; `problems` names each one. */
export class Scm2Error extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The vendor configuration (scm2) is not valid: ${problems.join('; ')}.`);
    this.name = 'Scm2Error';
  }
}

/** Checks and normalizes a scm2 `{ SAFE, NET }` object; throws Scm2Error naming every problem. */
export function parseScm2(input: unknown): Scm2Config {
  const result = scm2Schema.safeParse(input);
  if (result.success) return result.data;
  throw new Scm2Error(
    result.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    ),
  );
}

/** The one own interface a valid scm2 sets. */
export function ownInterface(config: Scm2Config): Scm2Interface {
  return SCM2_INTERFACES.find((i) => config.NET[i] !== null)!;
}

/** The one interface a peer is reached by. */
export function peerInterface(peer: Scm2Peer): Scm2Interface {
  return SCM2_INTERFACES.find((i) => peer[i] !== null)!;
}

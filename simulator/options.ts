import { basename, dirname, join } from 'node:path';
import { DEVICE_TYPES, type DeviceType } from '../domain/device-types';
import { releaseKeyFromPem, type ReleaseKey } from '../domain/files/firmware-release-key';
import { MAX_BLOCK_SIZE, MAX_IN_FLIGHT_LIMIT, SERIAL_DEFAULT_BAUD_RATE } from '../protocol/constants';
import { SIMULATED_DEVICE_MAX_PAYLOADS } from './coap/q-block1-sets';
import type { FaultOptions } from './faults';
import { simulatorDir } from './scratch-dir';
import type { AdvertisedCoding } from '../domain/files/content-coding';
import { VENDOR_MODELS } from './vendor/family';

export type LinkOption = 'pty' | 'ble' | { udp: { host: string; port: number } };

/**
 * Which device protocol a simulated device speaks: ours (docs/device-protocol.md) or the vendor's
 * (docs/vendor-devices.md: an FRC-family device on a pty with plain SLIP, or an EPC on UDP).
 */
export type DeviceProtocol = 'provisioner' | 'vendor';
export const DEVICE_PROTOCOLS: readonly DeviceProtocol[] = ['provisioner', 'vendor'];

export interface BleOptions {
  /** The largest ATT MTU the peripheral accepts; the central's request may lower it. Default 247. */
  mtu?: number;
  /** Default 15 ms. */
  connectionIntervalMs?: number;
  /** Packets per connection event and direction. Default 4. */
  packetsPerInterval?: number;
}

export interface SimulatedDeviceOptions {
  deviceType: DeviceType;
  /** Default 'provisioner'. */
  protocol?: DeviceProtocol;
  serialNumber: string;
  model?: string;
  /** The version the device runs before any update (its state directory wins once it exists). */
  firmwareVersion?: string;
  link: LinkOption;
  /** The device's own directory: its non-volatile memory. */
  stateDir: string;
  /** The service's root key (SPKI PEM): it certifies the organization keys that sign configuration files. */
  publicKeyPem: string;
  /**
   * The firmware release keys (Ed25519, SPKI PEM) the device trusts: a real device gets them at
   * manufacture. Without any, the device refuses every firmware image. Default none.
   */
  releaseKeysPem?: readonly string[];
  /** Serial line rate; the wire model moves baud / 10 bytes per second. Default 115200. */
  baudRate?: number;
  ble?: BleOptions;
  /** UDP wire model. Default 1 000 000 B/s, 1 ms one-way latency. */
  udp?: { bytesPerSecond?: number; latencyMs?: number };
  /** How fast the device writes staged firmware. Default 2 000 000 B/s. */
  flashWriteBytesPerSecond?: number;
  /** Largest Block1/Block2 block, 16 to 1024. Default 1024. */
  maxBlockSize?: number;
  /** Firmware blocks the host may keep in flight. Default 4. */
  maxInFlight?: number;
  /** Blocks in one Q-Block1 payload set (MAX_PAYLOADS, GET /info qBlock1MaxPayloads). Default SIMULATED_DEVICE_MAX_PAYLOADS (512). */
  qBlock1MaxPayloads?: number;
  /** Largest image the staged bank holds. Default 8 MiB. */
  maxImageSize?: number;
  /**
   * Content codings the device decodes besides identity, advertised in GET /info (docs/device-protocol.md
   * 3.3). Default deflate and delta with a 32 KiB window; [] is a device from before codings.
   */
  codings?: readonly AdvertisedCoding[];
  /** Largest configuration file. Default 64 KiB. */
  maxConfigSize?: number;
  /** How long the device is gone while it reboots. Default 500 ms. */
  rebootMs?: number;
  /** How long writing a verified image into the boot bank takes. Default 300 ms. */
  applyMs?: number;
  /** Serial: the host end of the pty. Default `<ptyDir>/<serialNumber>`. */
  ptyPath?: string;
  /**
   * Serial: where the host ends of the ptys appear, found by the port glob `<ptyDir>/*` as a real
   * adapter is found under /dev. Default `<simulator dir>/pty` (see scratch-dir.ts).
   */
  ptyDir?: string;
  faults?: FaultOptions;
  /** The function test's simulated technician: press the E-stop this long after a host starts observing /safety. Default never. */
  pressEstopAfterMs?: number;
  /** Where devices of one configuration tell each other of a press (device/safety.ts). Default `<simulator dir>/safety-bus`. */
  safetyBusDir?: string;
  /** The device's control socket (device/control-socket.ts). Default `<simulator dir>/control/<serialNumber>.sock`. */
  controlSocketPath?: string;
}

export type ResolvedDeviceOptions = Required<
  Omit<SimulatedDeviceOptions, 'ble' | 'udp' | 'faults' | 'ptyPath' | 'pressEstopAfterMs'>
> & {
  pressEstopAfterMs: number | undefined;
  ble: Required<BleOptions>;
  udp: { bytesPerSecond: number; latencyMs: number };
  faults: FaultOptions;
  ptyPath: string;
  devicePtyPath: string;
  /** `releaseKeysPem`, checked and with their key ids. */
  releaseKeys: ReleaseKey[];
};

/** What a simulated device decodes unless told otherwise: a 32 KiB DEFLATE window, as esptool's ROM loaders keep. */
export const DEFAULT_DEVICE_CODINGS: readonly AdvertisedCoding[] = [
  { name: 'deflate', windowBits: 15 },
  { name: 'delta', windowBits: 15 },
];

const MODELS: Record<DeviceType, string> = { SRCP: 'SRCP-R2', WESP: 'WESP-W1', EPC: 'EPC-E4', NSCP: 'NSCP-N2' };

export function resolveOptions(options: SimulatedDeviceOptions): ResolvedDeviceOptions {
  if (!DEVICE_TYPES.includes(options.deviceType))
    throw new Error(`Unknown device type ${options.deviceType}; use one of ${DEVICE_TYPES.join(', ')}.`);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(options.serialNumber))
    throw new Error(`Serial number "${options.serialNumber}" must be 1 to 32 letters, digits, - or _.`);
  const maxBlockSize = options.maxBlockSize ?? MAX_BLOCK_SIZE;
  if (![16, 32, 64, 128, 256, 512, 1024].includes(maxBlockSize))
    throw new Error(`maxBlockSize must be a power of two from 16 to 1024, not ${maxBlockSize}.`);
  const maxInFlight = options.maxInFlight ?? 4;
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT_LIMIT) {
    throw new Error(`maxInFlight must be 1 to ${MAX_IN_FLIGHT_LIMIT}, not ${maxInFlight}.`);
  }
  const qBlock1MaxPayloads = options.qBlock1MaxPayloads ?? SIMULATED_DEVICE_MAX_PAYLOADS;
  if (!Number.isInteger(qBlock1MaxPayloads) || qBlock1MaxPayloads < 1 || qBlock1MaxPayloads > 4096) {
    throw new Error(`qBlock1MaxPayloads must be 1 to 4096, not ${qBlock1MaxPayloads}.`);
  }
  const ble = { mtu: 247, connectionIntervalMs: 15, packetsPerInterval: 4, ...options.ble };
  if (!Number.isInteger(ble.mtu) || ble.mtu < 23 || ble.mtu > 517)
    throw new Error(`The BLE MTU must be 23 to 517, not ${ble.mtu}.`);
  if (!(ble.connectionIntervalMs > 0) || !(ble.packetsPerInterval >= 1))
    throw new Error('The BLE connection interval and packets per interval must be positive.');
  const baudRate = options.baudRate ?? SERIAL_DEFAULT_BAUD_RATE;
  if (!(baudRate > 0)) throw new Error(`The baud rate must be positive, not ${baudRate}.`);
  const ptyDir = options.ptyDir ?? join(simulatorDir(), 'pty');
  const ptyPath = options.ptyPath ?? join(ptyDir, options.serialNumber);
  const releaseKeysPem = options.releaseKeysPem ?? [];
  const releaseKeys = releaseKeysPem.map((pem, i) => {
    try {
      return releaseKeyFromPem(pem, `provisioned release key ${i + 1}`);
    } catch (error) {
      throw new Error(`Release key ${i + 1} of ${options.serialNumber}: ${(error as Error).message}`);
    }
  });
  const protocol = options.protocol ?? 'provisioner';
  if (!DEVICE_PROTOCOLS.includes(protocol))
    throw new Error(`Unknown protocol ${String(protocol)}; use one of ${DEVICE_PROTOCOLS.join(', ')}.`);
  if (protocol === 'vendor') checkVendorLink(options.deviceType, options.link);
  return {
    deviceType: options.deviceType,
    protocol,
    serialNumber: options.serialNumber,
    model: options.model ?? (protocol === 'vendor' ? VENDOR_MODELS[options.deviceType] : MODELS[options.deviceType]),
    firmwareVersion: options.firmwareVersion ?? '1.0.0',
    link: options.link,
    stateDir: options.stateDir,
    publicKeyPem: options.publicKeyPem,
    releaseKeysPem,
    releaseKeys,
    baudRate,
    ble,
    udp: { bytesPerSecond: 1_000_000, latencyMs: 1, ...options.udp },
    flashWriteBytesPerSecond: options.flashWriteBytesPerSecond ?? 2_000_000,
    maxBlockSize,
    maxInFlight,
    qBlock1MaxPayloads,
    maxImageSize: options.maxImageSize ?? 8 * 1024 * 1024,
    maxConfigSize: options.maxConfigSize ?? 64 * 1024,
    codings: options.codings ?? DEFAULT_DEVICE_CODINGS,
    rebootMs: options.rebootMs ?? 500,
    applyMs: options.applyMs ?? 300,
    ptyDir,
    ptyPath,
    // Beside the host end, hidden: only the simulator opens it.
    devicePtyPath: join(dirname(ptyPath), `.${basename(ptyPath)}.device`),
    faults: options.faults ?? {},
    pressEstopAfterMs: options.pressEstopAfterMs,
    safetyBusDir: options.safetyBusDir ?? join(dirname(ptyDir), 'safety-bus'),
    controlSocketPath: options.controlSocketPath ?? join(dirname(ptyDir), 'control', `${options.serialNumber}.sock`),
  };
}

/** The vendor's devices: the EPC on UDP, the FRC family on USB serial; none has BLE (vendor spec §1). */
function checkVendorLink(deviceType: DeviceType, link: LinkOption): void {
  if (link === 'ble')
    throw new Error(
      'A vendor device has no BLE transport (vendor spec §1.5): use --link pty for an SRCP/NSCP/WESP, --link udp:HOST:PORT for an EPC.',
    );
  if (deviceType === 'EPC' && link === 'pty')
    throw new Error("The vendor's EPC speaks CoAP over UDP: use --link udp:127.0.0.1:5683 (or another port).");
  if (deviceType !== 'EPC' && link !== 'pty')
    throw new Error(`The vendor's ${deviceType} (FRC family) speaks over USB serial: use --link pty.`);
}

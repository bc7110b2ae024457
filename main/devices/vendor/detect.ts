import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { FRAME_CRC_SIZE } from '../../../protocol/framing';
import { decodeMessage, encodeMessage, uriPathOptions, type CoapMessage } from '../../../protocol/coap/codec';
import { CODE, MESSAGE_ID_MODULUS } from '../../../protocol/coap/parameters';
import { ACK_TIMEOUT_MS, RESOURCE } from '../../../protocol/constants';
import { EPC_PATH, FRC_PATH } from '../../../protocol/vendor';
import type { Link } from '../links/link';
import { createLink, parseLinkSpec, type LinkFactoryDeps, type LinkSpec } from '../links/link-spec';
import { SerialLink } from '../links/serial-link';
import { portOf } from '../discovery/device-sources';

/**
 * Which protocol a device on a port speaks: ours (docs/device-protocol.md) or the vendor's
 * (docs/vendor-devices.md). Both are CoAP; they differ in their resources and, on USB, in their
 * framing: ours has a CRC-32 after each message, the vendor's none.
 *
 * The probe sends two read-only requests at once and listens for either answer:
 *  - ours: GET info, in our CRC frame on serial. A vendor device reads the CRC as four more option
 *    bytes and at worst refuses the request (4.02/4.04 or a reset): a GET changes nothing;
 *  - the vendor's: GET cfg/setup/serialNumber (FRC, plain SLIP) or info/fw/version (EPC, UDP). Ours
 *    drops the plain frame (its CRC does not match) and answers 4.04 on UDP.
 * Each is answered only by its own kind of device, and neither can be taken for a command, so a
 * device is left as it was. The answer is remembered per port for the session.
 */
export type DeviceProtocol = 'provisioner' | 'vendor';

export const PROTOCOL_LABEL: Record<DeviceProtocol, string> = { provisioner: 'Provisioner', vendor: 'FORT (vendor)' };

const remembered = new Map<string, DeviceProtocol>();

/** What this session learned of the port `link` reaches, if anything. */
export function rememberedProtocol(link: string): DeviceProtocol | undefined {
  return remembered.get(portOf(link));
}

export function rememberProtocol(link: string, protocol: DeviceProtocol): void {
  remembered.set(portOf(link), protocol);
}

/** Another device may be on the port now (nothing answered as remembered): ask again next time. */
export function forgetProtocol(link: string): void {
  remembered.delete(portOf(link));
}

export interface DetectOptions {
  linkDeps?: LinkFactoryDeps;
  /** Wait for an answer this long per try. Default the link's ACK timeout. */
  ackTimeoutMs?: number;
  /** Tries of the pair of requests. Default 2. */
  tries?: number;
  signal?: AbortSignal;
}

/** The link the probe uses: a serial port without a CRC (it checks our CRC itself), else the usual link. */
function probeLinkFor(spec: LinkSpec, deps: LinkFactoryDeps | undefined): Link {
  if (spec.kind === 'serial')
    return new SerialLink({
      path: spec.path,
      baudRate: spec.baudRate,
      openPort: deps?.openPort,
      checksum: 'none',
      whenPortInUse: deps?.whenPortInUse,
    });
  return createLink(spec, deps);
}

function request(path: string, token: Uint8Array, messageId: number): Uint8Array {
  return encodeMessage({
    type: 'CON',
    code: CODE.GET,
    messageId,
    token,
    options: uriPathOptions(path),
    payload: new Uint8Array(0),
  });
}

function withCrc(message: Uint8Array): Uint8Array {
  const framed = new Uint8Array(message.length + FRAME_CRC_SIZE);
  framed.set(message);
  new DataView(framed.buffer).setUint32(message.length, crc32(message), true);
  return framed;
}

/** Our frame's message when `bytes` end with its CRC-32, else undefined. */
function withoutCrc(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length <= FRAME_CRC_SIZE) return undefined;
  const message = bytes.subarray(0, bytes.length - FRAME_CRC_SIZE);
  const crc = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(message.length, true);
  return crc32(message) === crc ? message : undefined;
}

function decoded(bytes: Uint8Array): CoapMessage | undefined {
  try {
    return decodeMessage(bytes);
  } catch {
    return undefined;
  }
}

function sameToken(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Probes the port and remembers the answer; resolves with null when neither kind of device
 * answered (nothing there, or something else). A remembered answer is returned without traffic.
 */
export async function detectProtocol(link: string, options: DetectOptions = {}): Promise<DeviceProtocol | null> {
  const spec = parseLinkSpec(link);
  // BLE carries our protocol only: the vendor's devices have no BLE transport (vendor spec §1.5).
  if (spec.kind === 'ble') return 'provisioner';
  const known = rememberedProtocol(link);
  if (known) return known;
  const found = await probe(spec, options);
  if (found) rememberProtocol(link, found);
  return found;
}

async function probe(spec: LinkSpec, options: DetectOptions): Promise<DeviceProtocol | null> {
  const link = probeLinkFor(spec, options.linkDeps);
  await link.open(options.signal);
  const ours = new Uint8Array([1, randomInt(256), randomInt(256), randomInt(256)]);
  const theirs = Uint8Array.of(randomInt(256), randomInt(256));
  const vendorPath = spec.kind === 'udp' ? EPC_PATH.fwVersion : FRC_PATH.serialNumber;
  const ackTimeoutMs = options.ackTimeoutMs ?? (spec.kind === 'udp' ? ACK_TIMEOUT_MS.udp : ACK_TIMEOUT_MS.serial);
  try {
    return await new Promise<DeviceProtocol | null>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (result: DeviceProtocol | null) => {
        clearTimeout(timer);
        off();
        options.signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const onAbort = () => {
        clearTimeout(timer);
        off();
        reject(options.signal!.reason);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const off = link.onMessage((bytes) => {
        const ourMessage = spec.kind === 'serial' ? withoutCrc(bytes) : bytes;
        const mine = ourMessage && decoded(ourMessage);
        if (mine && sameToken(mine.token, ours) && mine.code === CODE.CONTENT) return done('provisioner');
        const vendor = decoded(bytes);
        if (vendor && sameToken(vendor.token, theirs) && vendor.code.startsWith('2.')) return done('vendor');
      });
      let tries = 0;
      const messageId = randomInt(MESSAGE_ID_MODULUS);
      const send = () => {
        if (tries >= (options.tries ?? 2)) return done(null);
        tries++;
        // The same message ids on a retry: a device that got the first takes the second as a duplicate.
        const ourRequest = request(RESOURCE.info, ours, messageId);
        const vendorRequest = request(vendorPath, theirs, (messageId + 1) % MESSAGE_ID_MODULUS);
        try {
          link.send(spec.kind === 'serial' ? withCrc(ourRequest) : ourRequest);
          link.send(vendorRequest);
        } catch {
          return done(null);
        }
        timer = setTimeout(send, ackTimeoutMs * tries);
      };
      send();
    });
  } finally {
    await link.close().catch(() => undefined);
  }
}

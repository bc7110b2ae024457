/**
 * The device protocol's constants, shared by the host side (main/devices) and the simulator.
 * docs/device-protocol.md is the normative description; names follow the RFCs where they exist.
 */

/** RFC 7252 §12.3: application/cbor. */
export const CONTENT_FORMAT_CBOR = 60;
/** RFC 6690 link format, for /.well-known/core. */
export const CONTENT_FORMAT_LINK_FORMAT = 40;

/** Default UDP port of CoAP (RFC 7252 §6.1), used by EPC devices on Ethernet or Wifi. */
export const COAP_DEFAULT_PORT = 5683;

/** Serial line defaults: 8N1, no flow control. */
export const SERIAL_DEFAULT_BAUD_RATE = 115200;
/** USB product id of the vendor's devices. */
export const USB_PRODUCT_ID = 0xd101;
/**
 * USB vendor id of the vendor's devices. A product id alone is 16 bits any gadget may claim: the
 * Linux udev rule (assets/linux/60-provisioner.rules) gives access only to this vendor's 0xD101.
 * No vendor id was recorded anywhere before; 0x1209 (pid.codes) stands in until the hardware
 * team confirms the devices' own, and the rule's test keeps the two equal.
 */
export const USB_VENDOR_ID = 0x1209;

/** BLE GATT service carrying the SLIP byte stream. */
export const BLE_SERVICE_UUID = '6e40d101b5a3f393e0a9e50e24dcca9e';
/** Host to device, write without response. */
export const BLE_RX_CHARACTERISTIC_UUID = '6e40d102b5a3f393e0a9e50e24dcca9e';
/** Device to host, notify. */
export const BLE_TX_CHARACTERISTIC_UUID = '6e40d103b5a3f393e0a9e50e24dcca9e';
/** ATT header of a write or notification: the usable payload per packet is MTU - 3. */
export const BLE_ATT_HEADER_SIZE = 3;

/** Resource paths (Uri-Path segments joined by '/'). */
export const RESOURCE = {
  wellKnownCore: '.well-known/core',
  /** GET: identity and capabilities. */
  info: 'info',
  /** GET (observable): firmware update status. POST: announce an image (size, sha256, version). */
  firmware: 'fw',
  /** PUT with Block1: the image's bytes. */
  firmwareData: 'fw/data',
  /** POST: verify the staged image and apply it; the device reboots. */
  firmwareApply: 'fw/apply',
  /** GET: the applied configuration's syncId. PUT with Block1: upload and apply a configuration file. */
  config: 'config',
  /** POST: reboot. */
  reboot: 'reboot',
} as const;

/** Largest block the protocol uses (SZX 6, RFC 7959). */
export const MAX_BLOCK_SIZE = 1024;
/** The block size of the vendor's old tool, which sends stop-and-wait. */
export const LEGACY_BLOCK_SIZE = 64;

/** Error codes carried in CBOR error payloads `{ code, message }`. */
export const DEVICE_ERROR = {
  badRequest: 'BAD_REQUEST',
  notFound: 'NOT_FOUND',
  busy: 'BUSY',
  fwNotAnnounced: 'FW_NOT_ANNOUNCED',
  fwTooLarge: 'FW_TOO_LARGE',
  fwOutOfWindow: 'FW_OUT_OF_WINDOW',
  fwIncomplete: 'FW_INCOMPLETE',
  fwHashMismatch: 'FW_HASH_MISMATCH',
  fwWrongType: 'FW_WRONG_TYPE',
  fwBadHeader: 'FW_BAD_HEADER',
  /** The announce carries no signed firmware manifest. */
  fwUnsigned: 'FW_UNSIGNED',
  /** The signed manifest is malformed, its signature does not verify, or it does not describe the announced image. */
  fwBadSignature: 'FW_BAD_SIGNATURE',
  /** The manifest is signed by a release key the device does not hold. */
  fwUntrustedKey: 'FW_UNTRUSTED_KEY',
  /** The manifest is signed by a release key that an applied release retired. */
  fwKeyRetired: 'FW_KEY_RETIRED',
  /** The manifest's security counter is below the highest the device has applied. */
  fwRollback: 'FW_ROLLBACK',
  configBadFormat: 'CONFIG_BAD_FORMAT',
  configChecksumMismatch: 'CONFIG_CHECKSUM_MISMATCH',
  configBadSignature: 'CONFIG_BAD_SIGNATURE',
  configWrongDevice: 'CONFIG_WRONG_DEVICE',
  configTooLarge: 'CONFIG_TOO_LARGE',
  /** The device is claimed by an organization and the file is signed by another organization's key. */
  configWrongOrganization: 'CONFIG_WRONG_ORGANIZATION',
  /** The file's sequence is below the applied file's (a replay), or equal to it for another file. */
  configSuperseded: 'CONFIG_SUPERSEDED',
} as const;
export type DeviceErrorCode = (typeof DEVICE_ERROR)[keyof typeof DEVICE_ERROR];

/** Firmware update states reported by GET /fw. */
export const FIRMWARE_STATES = ['idle', 'receiving', 'received', 'verifying', 'applying', 'failed'] as const;
export type FirmwareState = (typeof FIRMWARE_STATES)[number];

/**
 * Largest CoAP message in a serial or BLE frame (before the CRC): a 1024-byte block plus room for
 * header, token and options. A receiver drops longer frames.
 */
export const MAX_FRAME_MESSAGE_SIZE = MAX_BLOCK_SIZE + 64;

/** Version of this protocol, reported as `protocol` by GET /info. */
export const PROTOCOL_VERSION = 1;

/** RFC 7252 ACK_TIMEOUT per link, milliseconds: UDP keeps the RFC's 2 s; serial and BLE latency is known. */
export const ACK_TIMEOUT_MS = { udp: 2000, serial: 1000, ble: 1000 } as const;

/** How many (message id, response) pairs a device remembers to answer duplicates (RFC 7252 §4.5). */
export const DEDUPLICATION_CACHE_SIZE = 32;

/** The host never keeps more Block1 requests in flight than this, whatever the device offers. */
export const MAX_IN_FLIGHT_LIMIT = 16;

/** A device sends the ACK of /fw/apply, /reboot and a configuration before it reboots, and waits this long first. */
export const REBOOT_AFTER_RESPONSE_MS = 50;

/** How long the host waits for a separate response after an empty ACK (RFC 7252 §5.2.2). */
export const SEPARATE_RESPONSE_TIMEOUT_MS = 30_000;

/** A device notifies GET /fw observers at most this often while bytes arrive (state changes always). */
export const FIRMWARE_STATUS_MIN_INTERVAL_MS = 250;

/** Error codes added after the first page of the protocol; see docs/device-protocol.md "Error codes". */
export const DEVICE_ERROR_MORE = {
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  blockTooLarge: 'BLOCK_TOO_LARGE',
  configOutOfWindow: 'CONFIG_OUT_OF_WINDOW',
  internal: 'INTERNAL_ERROR',
} as const;
/**
 * Error codes of compressed and delta firmware transfer (docs/device-protocol.md 3.3, "Content
 * codings"). Each leaves the running image untouched: the staged bank is discarded.
 */
export const DEVICE_ERROR_CODING = {
  /** The announce names a coding (or a window) the device did not advertise in GET /info. */
  codingUnsupported: 'FW_CODING_UNSUPPORTED',
  /** The coded stream is corrupt, truncated, or decodes to other than the announced size. */
  codingCorrupt: 'FW_CODING_CORRUPT',
  /** A patch's base is not the image the device runs: send the full image instead. */
  baseMismatch: 'FW_BASE_MISMATCH',
} as const;

export type AnyDeviceErrorCode =
  | DeviceErrorCode
  | (typeof DEVICE_ERROR_MORE)[keyof typeof DEVICE_ERROR_MORE]
  | (typeof DEVICE_ERROR_CODING)[keyof typeof DEVICE_ERROR_CODING];

/** The CoAP response code a device answers with for each error code (docs/device-protocol.md). */
export const DEVICE_ERROR_RESPONSE_CODE: Record<AnyDeviceErrorCode, string> = {
  BAD_REQUEST: '4.00',
  FW_BAD_HEADER: '4.00',
  FW_HASH_MISMATCH: '4.00',
  CONFIG_BAD_FORMAT: '4.00',
  CONFIG_CHECKSUM_MISMATCH: '4.00',
  CONFIG_BAD_SIGNATURE: '4.03',
  CONFIG_WRONG_ORGANIZATION: '4.03',
  FW_UNSIGNED: '4.03',
  FW_BAD_SIGNATURE: '4.03',
  FW_UNTRUSTED_KEY: '4.03',
  FW_KEY_RETIRED: '4.03',
  NOT_FOUND: '4.04',
  METHOD_NOT_ALLOWED: '4.05',
  FW_OUT_OF_WINDOW: '4.08',
  CONFIG_OUT_OF_WINDOW: '4.08',
  FW_NOT_ANNOUNCED: '4.09',
  FW_INCOMPLETE: '4.09',
  FW_WRONG_TYPE: '4.09',
  FW_ROLLBACK: '4.09',
  CONFIG_WRONG_DEVICE: '4.09',
  CONFIG_SUPERSEDED: '4.09',
  FW_CODING_CORRUPT: '4.00',
  FW_BASE_MISMATCH: '4.12',
  FW_CODING_UNSUPPORTED: '4.15',
  FW_TOO_LARGE: '4.13',
  CONFIG_TOO_LARGE: '4.13',
  BLOCK_TOO_LARGE: '4.13',
  INTERNAL_ERROR: '5.00',
  BUSY: '5.03',
};

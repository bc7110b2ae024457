/**
 * The vendor's device protocol (docs/vendor-devices.md; vendor spec in the shared notes): resource
 * paths, content formats and limits. The settings paths are domain/vendor/paths.ts, re-exported.
 */
export {
  EPC_PATH,
  FRC_PATH,
  FRC_SLOTS,
  slotPath,
  epcCarePath,
  epcEthPath,
  epcPeerPath,
} from '../../domain/vendor/paths';

export const VENDOR_RESOURCE = {
  /** POST a file name (text) to select it; Block1 POST its bytes; Block2 GET them. */
  fsData: 'fs/data',
  /** POST 12 bytes (start, length, CRC-32) before an upload; GET with `?computed` after it. */
  fsMetadata: 'fs/metadata',
  /** EPC firmware: POST CBOR {length, data, sha256}. */
  epcFirmware: 'fl/fw/epc',
  /** EPC firmware status, text, observable. */
  epcFirmwareStatus: 'fl/fw/epc/status',
  /** EPC: POST the secure-config map (CBOR). */
  cfgAll: 'cfg/all',
  systemReset: 'cfg/setup/systemReset',
} as const;

/** The Uri-Query of `GET fs/metadata?computed`. */
export const FS_METADATA_COMPUTED = 'computed';

/** The FRC's fixed file names (vendor spec §7.1, §8.1). */
export const FRC_FILE = {
  appImage: 'updateAppImg.bin',
  bleRadioImage: 'btRadioFw.freqHop.bin',
  ismRadioImage: 'ismfw.bin',
  smcuReadOnly: 'ER_RO',
  smcuFileSystem: 'ER_FS',
  smcuOptionBytes: 'ER_OPT_BYTES',
  smcuSettings: 'smcuSettings.blob',
  secureConfig: 'secureConfig.cbor',
} as const;
export type FrcFileName = (typeof FRC_FILE)[keyof typeof FRC_FILE];
export const FRC_FILE_NAMES: readonly string[] = Object.values(FRC_FILE);

/** Content formats the vendor's tool knows (vendor spec §2). */
export const VENDOR_CONTENT_FORMAT = { text: 0, octetStream: 42, json: 50, cbor: 60 } as const;

/** The vendor tool's block on USB (SZX 2) and the size of its automatic Block1 on UDP (SZX 6). */
export const VENDOR_USB_BLOCK_SIZE = 64;
export const VENDOR_UDP_BLOCK_SIZE = 1024;
/** The vendor's USB bridge truncates datagrams at this size: no frame from its tool is longer. */
export const VENDOR_USB_DATAGRAM_LIMIT = 1024;
/** The largest EPC firmware package the vendor's tool sends (vendor spec §6.3). */
export const EPC_FIRMWARE_MAX_SIZE = 209_715_200;
/** The vendor's USB product id; the vendor id is checked by nobody (vendor spec §1.3). */
export const VENDOR_USB_PRODUCT_ID = 0xd101;

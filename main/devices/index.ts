// The host side of the device protocol (docs/device-protocol.md): links, framing, the CoAP engine,
// device operations and discovery.
export * from './errors';
export { encodeFrame, FrameDecoder } from '../../protocol/framing';
export type { Link, LinkKind } from './links/link';
export { LinkClosedError } from './links/link';
export { SerialLink } from './links/serial-link';
export { UdpLink } from './links/udp-link';
export { BleLink } from './links/ble-link';
export { BleCentral, loadNoble, systemBleCentral } from './links/ble-central';
export { createMemoryLinkPair, MemoryLink } from './links/memory-link';
export {
  parseLinkSpec,
  formatLinkSpec,
  createLink,
  LinkSpecError,
  type LinkSpec,
  type LinkFactoryDeps,
} from './links/link-spec';
export { CoapEngine, type CoapEngineOptions } from './coap/engine';
export { DeviceSession, type DeviceSessionOptions } from './session';
export { identify } from './operations/identify';
export { uploadFirmware, applyFirmware, readFirmwareStatus, observeFirmwareStatus } from './operations/firmware';
export type {
  UploadProgress,
  FirmwareUploadOptions,
  FirmwareUploadResult,
  ApplyFirmwareOptions,
} from './operations/firmware';
export {
  uploadConfiguration,
  readConfigStatus,
  type ConfigUploadOptions,
  type ConfigUploadResult,
} from './operations/configuration';
export { reboot } from './operations/reboot';
export { readRunningParameters } from './operations/parameters';
export { observeSafety, type SafetyObservation, type SafetyChange } from './operations/safety';
export { waitForDevice, waitForReboot } from './operations/wait-for-device';
export type { DeviceInfo, FirmwareStatus, ConfigStatus } from './operations/payloads';
export * from './discovery';

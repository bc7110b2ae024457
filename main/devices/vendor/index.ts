// The vendor's device protocol on the host (docs/vendor-devices.md): identify, the fs file
// transfer, the EPC firmware POST, settings read back, systemReset, and which protocol a port speaks.
export {
  detectProtocol,
  rememberedProtocol,
  rememberProtocol,
  forgetProtocol,
  PROTOCOL_LABEL,
  type DeviceProtocol,
  type DetectOptions,
} from './detect';
export {
  identifyVendor,
  frcDeviceType,
  frcTypeFromRecord,
  frcTypeOfSerial,
  modelOf,
  type VendorIdentity,
  type VendorIdentifyOptions,
} from './identify';
export { uploadFile, downloadFile, fileMetadata, type FsUploadOptions, type FsUploadResult } from './fs-transfer';
export { updateEpcFirmware, type EpcFirmwareOptions, type EpcFirmwareResult } from './epc-firmware';
export { readBackValues, readValue, mismatchText, type ReadBackValue } from './read-back';
export { resetVendorDevice, requestSystemReset, waitForVendorDevice, type VendorWaitOptions } from './reset';
export { componentsOf, buildComponentImage, EPC_PACKAGE_NAME, type VendorComponent } from './components';
export { vendorGet, vendorPost, splitQuery, textOf } from './requests';
export { createVendorLink, vendorFamilyOf } from './link';
export { readHeldConfig, readHeldConfigFile, syncIdOf, sequenceOf, type HeldConfig } from './held-config';

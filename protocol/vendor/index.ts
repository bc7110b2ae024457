// The vendor's device protocol, as bytes in and bytes out: resource names, the fs/metadata codec,
// the raw little-endian integers, the EPC firmware body, systemReset. SLIP without CRC is
// protocol/framing's encodePlainFrame / FrameDecoder({ checksum: 'none' }); the secure-config map
// is domain/vendor/secure-config.ts (the service builds it too).
export * from './resources';
export * from './fs-metadata';
export * from './raw-int';
export * from './epc-firmware-body';
export * from './system-reset';
export * from './values';

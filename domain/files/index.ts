// Formats of the files that travel between the service, the app and the devices. Uses node:crypto,
// so the renderer does not import this module.
export * from './cbor';
export * from './file-error';
export * from './config-file';
export * from './config-file-signature';
export * from './config-file-org-key';
export * from './config-file-acceptance';
export * from './firmware-image';
export * from './firmware-bundle';
export * from './firmware-release-key';
export * from './firmware-manifest';

// CoAP as devices and hosts both speak it: the message codec and the RFC 7252/7959/9177 parameters.
export * from './parameters';
export * from './codec';
export * from './missing-blocks';

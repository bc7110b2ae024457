// CoAP for device links: codec (shared with the simulator), RFC parameters, and the client engine.
export * from './parameters';
export * from './codec';

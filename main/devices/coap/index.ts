// CoAP for device links: codec (shared with the simulator), RFC parameters, the client engine,
// block-wise transfers and Observe.
export * from './parameters';
export * from './codec';
export * from './engine';
export * from './block1';
export * from './block2';
export * from './observe';

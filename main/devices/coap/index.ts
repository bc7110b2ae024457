// CoAP for device links: codec (shared with the simulator), RFC parameters, the client engine,
// block-wise transfers and Observe.
export * from '../../../protocol/coap/parameters';
export * from '../../../protocol/coap/codec';
export * from './engine';
export * from './block1';
export * from './block2';
export * from './observe';

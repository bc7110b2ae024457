// The host's CoAP: the shared codec and parameters (protocol/coap), the client engine, block-wise
// transfers (Block1, Q-Block1, Block2) and Observe.
export * from '../../../protocol/coap';
export * from './engine';
export * from './block1';
export * from './q-block1';
export * from './block2';
export * from './observe';

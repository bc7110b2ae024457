// The vendor's device world as data: its configuration object (scm2), the values a device runs
// from it, the secure-config map, and the names of its settings resources. No I/O.
export * from './paths';
export * from './scm2';
export * from './running-values';
export * from './secure-config';
export * from './simulated-image';

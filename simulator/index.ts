// The device simulator's programmatic API: host tests, the CLI and e2e tests start devices here.
export { startSimulatedDevice } from './start-device';
export type { SimulatedDevice, SimulatedDeviceDescriptor } from './simulated-device';
export type { SimulatedDeviceOptions, LinkOption, BleOptions, DeviceProtocol } from './options';
export type { VendorState, StoredFile, AppliedVendorConfig } from './vendor/state';
export type { FaultOptions, FaultStats } from './faults';
export type { DeviceState, PersistedConfig, PersistedUpload } from './device/state';
export type { WireModel } from './wire/models';
export { serialWireModel, bleWireModel, udpWireModel } from './wire/models';
export { startFleet, type FleetSpec, type FleetDeviceSpec, type SimulatedFleet } from './fleet';
export { createSimulatedBleBindings, type SimulatedBleBindingsOptions } from './ble/bindings';
export { serveSimulatedBle, type BleBridge } from './ble/bridge-server';
export { connectSimulatedBleBindings, type RemoteBleBindings } from './ble/bridge-client';
export { simulatorDir, ptyGlob } from './scratch-dir';
export { sendControlCommand, type ControlAnswer, type ControlCommand } from './device/control-socket';

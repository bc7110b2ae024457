// Finding devices: serial ports (USB 0xD101 and the port globs), BLE, IP devices (multicast and typed targets); one look (findDevices) or the live list.
export { LiveDeviceList, type LiveDeviceListOptions } from './live-list';
export { DeviceListState, type DeviceListEvent } from './device-list';
export {
  listSerialCandidates,
  isProvisionerProductId,
  portGlobsFromEnv,
  portGlobRoot,
  portsMatching,
  type SerialCandidate,
  type SerialCandidateSources,
  type PortListing,
} from './serial-candidates';
export { probeLink, type ProbeOptions, type ProbeResult } from './probe';
export { findDevices, type FindOptions } from './find-devices';
export type { DeviceSources } from './device-sources';
export {
  discoverByMulticast,
  multicastDiscoveryFromEnv,
  ALL_COAP_NODES_IPV4,
  ALL_COAP_NODES_IPV6,
  type MulticastDiscoveryOptions,
} from './multicast';
export type { DiscoveredDevice } from './discovered-device';

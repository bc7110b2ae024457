/**
 * How a device is attached to a workstation: a USB serial port, IP (CoAP over UDP) or Bluetooth Low
 * Energy. One definition for the host, the simulator and the screens (issue 27); the in-process
 * memory pair of the tests is the devices layer's own addition.
 */
export type LinkKind = 'serial' | 'udp' | 'ble';
